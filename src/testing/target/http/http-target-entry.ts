/** The template of one turn's request: `path` and `body` hold `{{input}}`, `{{session}}`, `{{messages}}`. */
export interface HttpTurnTemplate {
  method?: "POST" | "PUT";
  path: string;
  body: unknown;
}

/** Where the answer's parts are: JSON Pointers into the JSON body, or into a stream's final object. */
export interface HttpAnswerShape {
  /** Absent: the answer is one JSON body. */
  stream?: "openai-chat" | "ai-sdk-ui";
  /** The answer's text, for a JSON answer (default `/response`); a stream's text is its deltas joined. */
  text?: string;
  /** The session id the server assigned. */
  session?: string;
  /** Or the response header that carries it. */
  sessionHeader?: string;
  step?: string;
  completed?: string;
}

/** The optional endpoint that reads what the server stored of a session. */
export interface HttpStateEndpoint {
  /** A GET path template, `{{session}}` URL-encoded in it. */
  path: string;
  step?: string;
  completed?: string;
  /** The domain state, by step (default: the whole body). */
  state?: string;
}

/** A `"kind": "http"` target of flowcheck.config.json: a team's own chat API, described by templates and pointers. */
export interface HttpTargetEntry {
  kind: "http";
  baseUrl: string;
  /** Per request; default 30000. */
  timeoutMs?: number;
  /** Already resolved by the config loader. */
  headers?: Record<string, string>;
  turn: HttpTurnTemplate;
  answer: HttpAnswerShape;
  state?: HttpStateEndpoint;
  flows?: Record<string, { steps?: string[] }>;
}
