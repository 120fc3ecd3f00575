import type http from "node:http";
import type { HttpTargetEntry } from "../../src/testing/target/http/http-target-entry.ts";
import { CONTACT_START, CONTACT_STEPS, contactTurn, type ContactProgress } from "./contact-flow.ts";
import { bodyOf, jsonOrUndefined, listenOnLoopback, type LoopbackServer } from "./loopback-server.ts";
import { dataEvent, wordsOf } from "./stream-pieces.ts";

export interface SessionChatOptions {
  /** The id of the n-th session it assigns (default `session-<n>`). */
  sessionId?: (n: number) => string;
  /** Plants a disagreement: the state endpoint reports this step, whatever the answers said. */
  stateStep?: string;
  /** Ends every JSON reply with the Authorization header it was sent, as a careless debug mode might. */
  echoAuthorization?: boolean;
}

/** What the server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface SessionChatServer extends LoopbackServer {
  /** Each session's progress in the contact flow, by id. */
  sessions: Map<string, ContactProgress>;
  requests: SeenRequest[];
}

function json(res: http.ServerResponse, status: number, body: unknown, session?: string): void {
  res.writeHead(status, { "content-type": "application/json", ...(session ? { "x-session-id": session } : {}) });
  res.end(JSON.stringify(body));
}

/** The session rendered as CSV, one row per stored field (`step,field,value`), as a turn asked with `Accept: text/csv` gets it. */
function csvRendering(res: http.ServerResponse, session: string, progress: ContactProgress): void {
  const rows = Object.entries(progress.state).flatMap(([step, fields]) =>
    Object.entries(fields).map(([field, value]) => `${step},${field},${JSON.stringify(value)}`),
  );
  res.writeHead(200, { "content-type": "text/csv; charset=utf-8", "x-session-id": session });
  res.end(["step,field,value", ...rows].join("\n") + "\n");
}

/** The answer as a Vercel AI SDK UI message stream (v5), the flow's step in a data part and the metadata. */
function uiMessageStream(
  res: http.ServerResponse,
  session: string,
  progress: ContactProgress,
  reply: string,
  n: number,
) {
  const flow = { step: progress.step, done: progress.done };
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "x-vercel-ai-ui-message-stream": "v1",
    "x-session-id": session,
  });
  res.end(
    [
      { type: "start", messageId: `msg-${n}`, messageMetadata: { session } },
      { type: "start-step" },
      { type: "text-start", id: "text-1" },
      ...wordsOf(reply).map((delta) => ({ type: "text-delta", id: "text-1", delta })),
      { type: "text-end", id: "text-1" },
      { type: "data-flow", data: flow },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop", messageMetadata: flow },
    ]
      .map(dataEvent)
      .join("") + dataEvent("[DONE]"),
  );
}

/**
 * A chat API that keeps its sessions: `POST /chat` with `{ session, message }` (session null to
 * start one) plays the contact flow and answers `{ session, reply, step, done }` with the id in
 * `X-Session-Id` too, or with `Accept: text/event-stream` the AI SDK UI message stream, or with
 * `Accept: text/csv` the session's stored fields as CSV rows (`step,field,value`);
 * `GET /sessions/<id>/state` answers `{ step, done, state }`. An unknown session is a 404, a message
 * to a session that is done a 409, a message that is not a string a 400.
 */
export async function startSessionChatServer(options: SessionChatOptions = {}): Promise<SessionChatServer> {
  const sessions = new Map<string, ContactProgress>();
  const requests: SeenRequest[] = [];
  const idOf = options.sessionId ?? ((n: number) => `session-${n}`);
  const chat = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: { session?: unknown; message?: unknown },
  ) => {
    const accept = req.headers.accept ?? "";
    const asked = typeof body.session === "string" && body.session !== "" ? body.session : undefined;
    const previous = asked === undefined ? CONTACT_START : sessions.get(asked);
    if (!previous) return json(res, 404, { error: `no session ${asked}` });
    if (previous.done) return json(res, 409, { error: `session ${asked} is done` }, asked);
    if (typeof body.message !== "string") return json(res, 400, { error: "message must be a string" });
    const session = asked ?? idOf(sessions.size + 1);
    const { progress, reply } = contactTurn(previous, body.message);
    sessions.set(session, progress);
    if (accept.includes("text/event-stream")) return uiMessageStream(res, session, progress, reply, requests.length);
    if (accept.includes("text/csv")) return csvRendering(res, session, progress);
    const echo = options.echoAuthorization ? ` (you sent ${req.headers.authorization})` : "";
    json(res, 200, { session, reply: `${reply}${echo}`, step: progress.step, done: progress.done }, session);
  };
  const server = await listenOnLoopback(async (req, res) => {
    const body = await bodyOf(req);
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    const state = /^\/sessions\/([^/]+)\/state$/.exec(req.url ?? "");
    if (req.method === "POST" && req.url === "/chat") return chat(req, res, (jsonOrUndefined(body) ?? {}) as object);
    if (req.method !== "GET" || !state) return json(res, 404, { error: "no such route" });
    const id = decodeURIComponent(state[1]!);
    const progress = sessions.get(id);
    if (!progress) return json(res, 404, { error: `no session ${id}` });
    json(res, 200, { step: options.stateStep ?? progress.step, done: progress.done, state: progress.state });
  });
  return { ...server, sessions, requests };
}

/**
 * The http target entry that plays this server: JSON answers read by pointers, or with `stream`
 * the UI message stream, its session from `X-Session-Id` and its step from the `data-flow` part.
 */
export function sessionChatEntry(baseUrl: string, options: { stream?: boolean } = {}): HttpTargetEntry {
  return {
    kind: "http",
    baseUrl,
    headers: { authorization: "Bearer fixture-token" },
    turn: { path: "/chat", body: { session: "{{session}}", message: "{{input}}" } },
    answer: options.stream
      ? { stream: "ai-sdk-ui", sessionHeader: "X-Session-Id", step: "/data/flow/step", completed: "/metadata/done" }
      : { text: "/reply", session: "/session", step: "/step", completed: "/done" },
    state: { path: "/sessions/{{session}}/state", step: "/step", completed: "/done", state: "/state" },
    flows: { ContactFlow: { steps: [...CONTACT_STEPS] } },
  };
}
