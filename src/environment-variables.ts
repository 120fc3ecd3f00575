export const MODEL_MODES = ["scripted", "live", "record", "replay", "auto"] as const;
export const SESSION_STORES = ["SQLITE", "MONGO"] as const;
export const JUDGE_MODES = ["auto", "off", "required"] as const;
export const CHECKLIST_MODES = ["report", "strict"] as const;
export const JUDGE_UNSTABLE_MODES = ["report", "fail"] as const;

/**
 * One variable the run reads: its default, what its value must be, and its line in
 * docs/reference/environment.md's table, which is rendered from this table
 * (`npx tsx test/tools/environment-table.ts --write`) and checked against it by a spec.
 */
export interface EnvironmentVariable {
  /** The value when unset; without it, unset means none. */
  readonly default?: string;
  /** The default as the reference words it, when it is more than the value (`the SDK's`, `unset: no limit`). */
  readonly shown?: string;
  /** What the value must be, as JSON Schema keywords for a string; without it, any string. */
  readonly schema?:
    | { readonly enum: readonly string[] }
    | { readonly pattern: string }
    | { readonly minLength: number };
  /** A refused value's fix, in words; without it, the schema's own message. */
  readonly hint?: string;
  /** The reference's meaning column. */
  readonly doc: string;
}

const INTEGER = "^(0|[1-9][0-9]*)$";
const POSITIVE = "^[1-9][0-9]*$";
// A majority of samples needs an odd count: an even one can tie.
const ODD = "^([1-9][0-9]*)?[13579]$";
// A target's name in flowcheck.config.json, as its schema and a scenario's `target` spell it.
const TARGET_NAME = "^[a-z0-9][a-z0-9-]*$";
const PRICE = "^(0|[1-9][0-9]*)(\\.[0-9]+)?$";

/**
 * Every variable flowcheck reads, once each, in the reference's order. A name that begins with
 * `<FLOW>_` stands for one variable per flow (`BASIC_FLOW_CURRENT_DATE`, …).
 */
export const ENVIRONMENT_VARIABLES = {
  FLOW_MODEL: {
    schema: { enum: MODEL_MODES },
    hint: `one of ${MODEL_MODES.join(", ")}, or unset`,
    doc:
      "`scripted`, `live`, `record`, `replay` or `auto` (each conversation replays its cassette when " +
      "it exists, else records it, which needs `OPENAI_API_KEY` and is refused under `CI`; it never " +
      "records over a cassette); anything else is refused with the list. Unset: `npm " +
      "start` uses `live` when `OPENAI_API_KEY` is set, else `scripted`, and says which in its first " +
      "log line; the specs use `scripted`",
  },
  "<FLOW>_USE_SCRIPTED_MODEL": {
    schema: { enum: ["1", "0", "true", "false"] },
    hint: "1 or true to use the scripted model for that flow, 0 or false not to",
    doc: "`1` runs that flow (e.g. `BASIC_FLOW_USE_SCRIPTED_MODEL`) and its children scripted, whatever `FLOW_MODEL` says",
  },
  "<FLOW>_CURRENT_DATE": {
    doc: "pins the flow's clock to an ISO 8601 instant, e.g. `2027-07-15T00:00:00.000Z`",
  },
  OPENAI_API_KEY: {
    doc: "the provider key (live mode)",
  },
  OPENAI_BASE_URL: {
    shown: "the SDK's",
    schema: { pattern: "^https?://" },
    hint: "an http:// or https:// URL",
    doc: "any OpenAI-compatible server",
  },
  OPENAI_MODEL: {
    default: "gpt-4o-mini",
    schema: { minLength: 1 },
    doc: "the chat model",
  },
  OPENAI_MAX_RETRIES: {
    default: "2",
    schema: { pattern: INTEGER },
    hint: "a whole number, 0 for no retries",
    doc: "the SDK's retries of a failed call",
  },
  OPENAI_TIMEOUT_MS: {
    default: "60000",
    schema: { pattern: POSITIVE },
    hint: "a positive whole number of milliseconds",
    doc: "the SDK's timeout per call",
  },
  SESSION_STORE: {
    default: "SQLITE",
    schema: { enum: SESSION_STORES },
    hint: `one of ${SESSION_STORES.join(", ")}`,
    doc:
      "the session store: `SQLITE`, or `MONGO` for several server processes sharing sessions; " +
      "each needs its driver installed beside flowcheck (`npm i -D better-sqlite3`, `npm i -D mongodb`)",
  },
  MONGO_URL: {
    schema: { pattern: "^mongodb(\\+srv)?://" },
    hint: "a mongodb:// or mongodb+srv:// connection string",
    doc: "the MongoDB server for `SESSION_STORE=MONGO` (the password is never printed)",
  },
  DOCUMENT_DB: {
    default: "flowcheck",
    schema: { pattern: "^[A-Za-z0-9_-]{1,63}$" },
    hint: "a database name of letters, digits, _ and -",
    doc: "the MongoDB database for `SESSION_STORE=MONGO`",
  },
  SQLITE_PATH: {
    shown: "`data/flowcheck.sqlite`",
    schema: { minLength: 1 },
    doc: "the SQLite file (specs use a fresh file under `test/.tmp/`)",
  },
  HOST: {
    default: "127.0.0.1",
    schema: { minLength: 1 },
    doc: "the address `npm start` listens on",
  },
  PORT: {
    default: "3000",
    schema: { pattern: INTEGER },
    hint: "a whole number from 0 to 65535",
    doc: "the port `npm start` listens on",
  },
  FLOW_API_TOKEN: {
    shown: "unset: the API is open",
    doc:
      "locks `npm start`'s API: every request then needs `Authorization: Bearer <token>`, else 401 " +
      "`unauthorized` ([locking the API](http-api.md#locking-the-api)); 16 or more visible ASCII characters, no " +
      "spaces, e.g. `openssl rand -hex 32`; a bad value is refused without being quoted, and the " +
      "token is never printed. The apps a test run boots in its own process are never locked",
  },
  FLOW_BASE_URL: {
    schema: { pattern: "^https?://" },
    hint: "the http:// or https:// URL of the running server",
    doc:
      "the flow suites drive this running server instead of booting one (a scenario's flow settings " +
      "then do not reach it, since that server booted with its own environment, and only its run " +
      "settings reach the runner; `FLOW_MODEL=record`, `replay` or `auto` is refused with it)",
  },
  FLOW_TARGET: {
    schema: { pattern: TARGET_NAME },
    hint: "the name of a target in flowcheck.config.json: lower-case letters, digits and dashes",
    doc:
      "the target of `flowcheck.config.json` ([targets](targets.md#targets)) the scenarios that name none are " +
      "played against; a scenario's own `target` wins. Unset: the app in the test process, or the " +
      "server at `FLOW_BASE_URL`; set together with `FLOW_BASE_URL` is refused (pick one); with " +
      "`FLOW_MODEL=record`, `replay` or `auto` the target's judge calls are taped " +
      "([cassettes](live-runs.md#live-runs-the-judge-and-cassettes))",
  },
  JUDGE: {
    default: "auto",
    schema: { enum: JUDGE_MODES },
    hint: `one of ${JUDGE_MODES.join(", ")}`,
    doc: "`auto` (judge when a judge can be reached), `off`, or `required` (a missing judge fails)",
  },
  JUDGE_MODEL: {
    default: "gpt-4o",
    schema: { minLength: 1 },
    doc: "the judge's model, unless the scenario names `judgeModel`",
  },
  JUDGE_MIN_AGREEMENT: {
    shown: "unset: none",
    schema: { pattern: "^(0(\\.[0-9]+)?|1(\\.0+)?)$" },
    hint: "a fraction from 0 to 1, e.g. 0.9",
    doc:
      "the agreement with the people's labels the judge must reach: `flowcheck judge calibrate` exits 1 " +
      "below it (`--min-agreement` wins over it)",
  },
  JUDGE_CACHE: {
    default: "on",
    schema: { enum: ["on", "off"] },
    hint: "on or off",
    doc: "`off` asks the judge again on every run",
  },
  JUDGE_SAMPLES: {
    default: "1",
    schema: { pattern: ODD },
    hint: "an odd whole number of samples, 1 or more, e.g. 3 (an even count can tie); unset for 1",
    doc:
      "how many times the judge grades each judged turn: the verdict is the majority of the samples, its " +
      "score their median, each sample a request of its own (the judge cache is not used, so a run costs " +
      "k× the judge calls); a turn whose samples disagree is marked unstable " +
      "([samples](live-runs.md#samples)). Odd: an even number or 0 is refused",
  },
  JUDGE_UNSTABLE: {
    default: "report",
    schema: { enum: JUDGE_UNSTABLE_MODES },
    hint: `one of ${JUDGE_UNSTABLE_MODES.join(", ")}`,
    doc: "`report` marks an unstable verdict (`JUDGE_SAMPLES` above 1) and keeps its majority's outcome; `fail` fails its judge check",
  },
  USER_MODEL: {
    default: "gpt-4o-mini",
    schema: { minLength: 1 },
    doc: "the model that plays a scenario's simulated `user` in `live` and `record` runs",
  },
  USER_BASE_URL: {
    shown: "`OPENAI_BASE_URL`'s",
    schema: { pattern: "^https?://" },
    hint: "an http:// or https:// URL",
    doc:
      "an OpenAI-compatible server for the simulated user's model; set, the user's key is " +
      "`USER_API_KEY` alone, so `OPENAI_API_KEY` never goes to another host",
  },
  USER_API_KEY: {
    shown: "`OPENAI_API_KEY` when `USER_BASE_URL` is unset",
    doc: "the key for the simulated user's model (a provider key: it goes to that provider alone)",
  },
  FLOW_REPEAT: {
    default: "1",
    schema: { pattern: POSITIVE },
    hint: "a whole number of runs, 1 or more",
    doc: "runs of each scenario",
  },
  FLOW_PASS_RATE: {
    default: "1",
    schema: { pattern: "^(0(\\.[0-9]+)?|1(\\.0+)?)$" },
    hint: "a fraction from 0 to 1, e.g. 0.8",
    doc: "the share of a scenario's runs each turn must pass (a scenario's `env` may set it)",
  },
  FLOW_CHECKLIST: {
    default: "report",
    schema: { enum: CHECKLIST_MODES },
    hint: `one of ${CHECKLIST_MODES.join(", ")}`,
    doc: "`strict` fails a run on any ✗ of the [new-flow checklist](results.md#the-new-flow-checklist) of a judged flow; `report` prints it only",
  },
  "<FLOW>_STRICT_CHECKLIST": {
    doc: "`1` makes the checklist strict for that flow alone, e.g. `TEA_FLOW_STRICT_CHECKLIST=1`",
  },
  FLOW_STRENGTH_MIN: {
    shown: "unset: none",
    schema: { pattern: "^(0(\\.[0-9]+)?|1(\\.0+)?)$" },
    hint: "a fraction from 0 to 1, e.g. 0.9",
    doc: "the [scenario strength](results.md#scenario-strength) every flow must reach: `flowcheck strength` exits 1 when a flow's score is below it",
  },

  FLOW_HEADERS: {
    doc:
      "headers the runner adds to every request to the target, as a JSON object, e.g. " +
      '`{"Authorization": "Bearer …"}` for a staging server behind a login; reports and transcripts ' +
      "show their values as `[redacted]`, and a bad value is refused without being quoted; the " +
      "headers the runner sets itself (`Content-Type`, `Accept`, `CHAT_SESSION_ID`, " +
      "`Idempotency-Key`, …) are refused",
  },

  FLOW_TURN_TIMEOUT_MS: {
    // A live turn makes up to a few model calls of OPENAI_TIMEOUT_MS each, retries included.
    default: "300000",
    schema: { pattern: POSITIVE },
    hint: "a positive whole number of milliseconds",
    doc:
      "how long the runner waits for a turn's whole answer (and for `GET /ai/flows`); past it the " +
      "turn fails saying so and the rest are skipped, so a stuck server cannot hang a run",
  },
  CI: {
    doc: "set by CI services: recording is refused, a missing cassette is an error (`FLOW_MODEL=auto` only replays)",
  },
  GITHUB_ACTIONS: {
    doc:
      "`true` (GitHub's runner sets it): `flowcheck test` ends with one annotation per failing turn, " +
      "judge verdict, final state and broken file, on its scenario's line, and a warning per skipped " +
      "conversation and flaky scenario ([in GitHub Actions](results.md#in-github-actions))",
  },
  GITHUB_STEP_SUMMARY: {
    doc: "a file (GitHub's runner sets it): every `flowcheck test` run appends its Markdown summary to it, as `flowcheck merge --summary` writes",
  },
  FLOW_CONCURRENCY: {
    shown:
      "`OPENAI_MAX_INFLIGHT`'s value (16) in live and record runs and with `JUDGE=required`, since a " +
      "conversation waits on one request at a time; unset otherwise",
    schema: { pattern: POSITIVE },
    hint: "a whole number of conversations, 1 or more (1 plays them one after another)",
    doc:
      "conversations (scenarios, cases, repeats) in flight at once across one `flowcheck test` run; " +
      "`1` plays them one after another. Unset in a scripted or replay run: conversations play one " +
      "after another, as node:test reaches them",
  },
  OPENAI_MAX_INFLIGHT: {
    default: "16",
    schema: { pattern: POSITIVE },
    hint: "a whole number of requests, 1 or more",
    doc:
      "requests in flight at once to one provider (the base URL's server), the app's model and the " +
      "judge together, across one `flowcheck test` run",
  },
  OPENAI_MAX_RPM: {
    shown: "unset: no limit",
    schema: { pattern: POSITIVE },
    hint: "a whole number of requests per minute, 1 or more, or unset for no limit",
    doc: "requests started per minute to one provider, across one `flowcheck test` run",
  },
  FLOW_MAX_TOKENS: {
    shown: "unset: no budget",
    schema: { pattern: POSITIVE },
    hint: "a whole number of tokens, 1 or more, or unset for no budget",
    doc:
      "tokens (model, judge and simulated user, as the provider's `usage` counts them) after which no new " +
      "conversation starts; those not started are skipped saying so. Per invocation, so per shard " +
      "when sharded",
  },
  FLOW_PRICE_PER_MTOK_IN: {
    schema: { pattern: PRICE },
    hint: "dollars per million input tokens, e.g. 0.15",
    doc: "dollars per million input tokens: with `FLOW_PRICE_PER_MTOK_OUT`, the run's summary estimates its cost. Set both or neither",
  },
  FLOW_PRICE_PER_MTOK_OUT: {
    schema: { pattern: PRICE },
    hint: "dollars per million output tokens, e.g. 0.6",
    doc: "dollars per million output tokens: with `FLOW_PRICE_PER_MTOK_IN`, the run's summary estimates its cost. Set both or neither",
  },
} as const satisfies Record<string, EnvironmentVariable>;

export type VariableName = keyof typeof ENVIRONMENT_VARIABLES;
