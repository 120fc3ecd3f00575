import { FlowcheckError } from "./errors.ts";
import { compileSchema } from "./engine/schema-validator.ts";
import {
  CHECKLIST_MODES,
  ENVIRONMENT_VARIABLES,
  JUDGE_MODES,
  JUDGE_UNSTABLE_MODES,
  MODEL_MODES,
  SESSION_STORES,
  type EnvironmentVariable,
  type VariableName,
} from "./environment-variables.ts";

export { CHECKLIST_MODES, JUDGE_MODES, JUDGE_UNSTABLE_MODES, MODEL_MODES, SESSION_STORES };

/**
 * The variables that hold a provider's key (the flows' live model and the judge share one, the
 * simulated user may have its own): each goes
 * to the provider alone, never to a target, whether by FLOW_HEADERS or flowcheck.config.json.
 */
export const PROVIDER_KEY_VARIABLES = Object.freeze([
  "OPENAI_API_KEY",
  "USER_API_KEY",
] as const satisfies readonly VariableName[]);

export type ModelMode = (typeof MODEL_MODES)[number];

/** Every setting, read once from the environment when the app is built, then frozen. */
export interface Config {
  host: string;
  port: number;
  sessionStore: (typeof SESSION_STORES)[number];
  /** Unset: the server uses `data/flowcheck.sqlite`, the test helpers a fresh file in `test/.tmp/`. */
  sqlitePath: string | undefined;
  /** For SESSION_STORE=MONGO: the server (MONGO_URL) and the database (DOCUMENT_DB). */
  mongo: { url: string | undefined; database: string };
  /**
   * Unset: `npm start` picks live with a key and scripted without; tests pick scripted. `auto` is
   * decided per conversation, replay or record, where its tape is opened (`tapeModeOf`): the
   * configuration that conversation plays on holds the decision.
   */
  flowModel: ModelMode | undefined;
  openai: {
    apiKey: string | undefined;
    baseURL: string | undefined;
    model: string;
    maxRetries: number;
    timeoutMs: number;
  };
  judge: {
    /** `auto`: judge when a judge can be reached; `off`: never; `required`: a missing judge fails. */
    mode: (typeof JUDGE_MODES)[number];
    model: string;
    /** Reuse verdicts over identical answers (`JUDGE_CACHE`, default on); never with more than one sample. */
    cache: boolean;
    /** How many times each judged turn is graded (`JUDGE_SAMPLES`, odd, default 1): the verdict is their majority. */
    samples: number;
    /** What an unstable verdict, whose samples disagree, does (`JUDGE_UNSTABLE`): `report` it, or `fail` its check. */
    unstable: (typeof JUDGE_UNSTABLE_MODES)[number];
    /** The agreement with people's labels below which `flowcheck judge calibrate` exits 1 (`JUDGE_MIN_AGREEMENT`). */
    minAgreement: number | undefined;
  };
  /** The model that plays a scenario's simulated user in live and record runs. */
  user: {
    model: string;
    baseURL: string | undefined;
    /** Undefined when `USER_BASE_URL` is set without `USER_API_KEY`: no user model can then be reached. */
    apiKey: string | undefined;
  };
  /** How long the runner waits for a turn's whole answer before failing it (`FLOW_TURN_TIMEOUT_MS`). */
  turnTimeoutMs: number;
  /** Headers the runner adds to every request to the target (`FLOW_HEADERS`), e.g. a staging server's credentials. */
  requestHeaders: Readonly<Record<string, string>>;
  /** The bearer token `npm start` locks its API with (`FLOW_API_TOKEN`); a secret, never shown. */
  apiToken: string | undefined;
  /** How often the flow suites play each scenario (`FLOW_REPEAT`), and the pass rate each turn needs. */
  repeat: number;
  passRate: number;
  /** The score below which a flow fails a strength run (`FLOW_STRENGTH_MIN`); undefined: none. */
  strengthMin: number | undefined;
  /** Set under CI: a cassette is then never recorded and never missing. */
  ci: boolean;
  /** On GitHub's runner: annotate failures (`GITHUB_ACTIONS=true`) and the file the job's summary is appended to (`GITHUB_STEP_SUMMARY`). */
  github: { annotations: boolean; stepSummary: string | undefined };
  /** The running server the flow suites drive instead of booting the app (`FLOW_BASE_URL`). */
  targetUrl: string | undefined;
  /** The target of flowcheck.config.json for the scenarios that name none (`FLOW_TARGET`). */
  flowTarget: string | undefined;
  /** How much of the provider a run may take at once, and in all (see `RunLimitsConfig`). */
  limits: RunLimitsConfig;
  /** The environment as it was when read, for the flows' own pins (`<FLOW>_CURRENT_DATE`, …). */
  env: Readonly<Record<string, string>>;
}

/** What a run may take of its provider: the flow suites hold to it across a whole flowcheck test run. */
export interface RunLimitsConfig {
  /** Conversations in flight at once (`FLOW_CONCURRENCY`); undefined: the default for the run's mode. */
  concurrency: number | undefined;
  /** Requests in flight at once to one provider, model and judge together (`OPENAI_MAX_INFLIGHT`). */
  maxInflight: number;
  /** Requests started per minute to one provider (`OPENAI_MAX_RPM`); undefined: no limit. */
  maxRpm: number | undefined;
  /** Tokens (model, judge and simulated user) after which no new conversation starts (`FLOW_MAX_TOKENS`). */
  maxTokens: number | undefined;
  /** Dollars per million tokens, for the summary's estimate (`FLOW_PRICE_PER_MTOK_IN`/`_OUT`). */
  price: { input: number; output: number } | undefined;
}

type Table = typeof ENVIRONMENT_VARIABLES;
type RunVariable = Exclude<VariableName, `<FLOW>_${string}`>;
type Defaulted = { [Name in RunVariable]: Table[Name] extends { default: string } ? Name : never }[RunVariable];

const RUN_ENTRIES = Object.entries(ENVIRONMENT_VARIABLES).filter(([name]) => !name.startsWith("<FLOW>_")) as [
  RunVariable,
  EnvironmentVariable,
][];
// `<FLOW>_USE_SCRIPTED_MODEL` → `_USE_SCRIPTED_MODEL`: how a flow's own variable of that kind ends.
const FLOW_ENTRIES = Object.entries(ENVIRONMENT_VARIABLES)
  .filter(([name]) => name.startsWith("<FLOW>_"))
  .map(([name, variable]) => [name.slice("<FLOW>".length), variable] as [string, EnvironmentVariable]);

/** Each variable's value when unset, from the table. */
export const DEFAULTS = Object.freeze(
  Object.fromEntries(
    RUN_ENTRIES.flatMap(([name, variable]) => (variable.default === undefined ? [] : [[name, variable.default]])),
  ),
) as Readonly<Record<Defaulted, string>>;

const validateEnv = compileSchema({
  type: "object",
  properties: Object.fromEntries(
    RUN_ENTRIES.flatMap(([name, variable]) =>
      variable.schema ? [[name, { type: "string", ...variable.schema }]] : [],
    ),
  ),
});

/**
 * Every variable the run reads, besides each flow's own (`<FLOW>_…`). They choose the model, the
 * provider and its key, where requests and sessions go: a scenario file sets none of them but the
 * few `src/testing/scenario/scenario-env.ts` lists as safe.
 */
export const RUN_VARIABLES: readonly string[] = Object.freeze(RUN_ENTRIES.map(([name]) => name));

/**
 * `NAME="value" is not valid: expected …`, the one form a refused value is told in. The secrets
 * (OPENAI_API_KEY, FLOW_HEADERS, FLOW_API_TOKEN) have no schema: they are checked by code of their
 * own that never quotes them.
 */
function refusal(
  name: string,
  value: string,
  variable: EnvironmentVariable | undefined,
  fallback = "a valid value",
): string {
  return `${name}="${value}" is not valid: expected ${variable?.hint ?? fallback}.`;
}

// The runner sets these itself: a flow request's body type, what it accepts, the session it continues, the turn's key.
const RUNNER_HEADERS = new Set([
  "content-type",
  "content-length",
  "accept",
  "host",
  "connection",
  "transfer-encoding",
  "chat_session_id",
  "idempotency-key",
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * FLOW_HEADERS, a JSON object of header names and string values. Its values are never quoted in a
 * problem: they are usually credentials.
 */
function headersOf(text: string | undefined, problems: string[]): Record<string, string> {
  if (text === undefined) return {};
  const example = 'e.g. {"Authorization": "Bearer …"}';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    problems.push(
      `FLOW_HEADERS is not valid JSON (its value is not shown: it may hold credentials); expected an ` +
        `object of header names and values, ${example}.`,
    );
    return {};
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push(`FLOW_HEADERS is not a JSON object; expected header names and values, ${example}.`);
    return {};
  }
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) problems.push(`FLOW_HEADERS has ${JSON.stringify(name)}, which is not a header name.`);
    else if (RUNNER_HEADERS.has(name.toLowerCase()))
      problems.push(`FLOW_HEADERS has ${name}, which the runner sets itself; drop it.`);
    else if (typeof headerValue !== "string")
      problems.push(
        `FLOW_HEADERS has ${name} with a ${headerValue === null ? "null" : typeof headerValue} value; header values are strings.`,
      );
    else headers[name] = headerValue;
  }
  return headers;
}

const MIN_API_TOKEN = 16;

/** FLOW_API_TOKEN, checked without ever quoting it: it is a secret. */
function apiTokenOf(token: string | undefined, problems: string[]): string | undefined {
  if (token === undefined) return undefined;
  const hint = `use ${MIN_API_TOKEN} or more letters, digits and punctuation, e.g. the output of \`openssl rand -hex 32\``;
  // A bearer token travels in a header: a space, a control character or non-ASCII would not arrive as set.
  if (!/^[\x21-\x7e]+$/.test(token))
    problems.push(
      `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}.`,
    );
  else if (token.length < MIN_API_TOKEN)
    problems.push(
      `FLOW_API_TOKEN is shorter than ${MIN_API_TOKEN} characters (its value is not shown: it is a secret), too easy to guess; ${hint}.`,
    );
  return token;
}

/** Each variable whose value is not allowed, naming the value and what is. */
function envProblems(env: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  if (!validateEnv(env)) {
    for (const error of validateEnv.errors ?? []) {
      const name = error.instancePath.slice(1);
      problems.push(refusal(name, env[name]!, ENVIRONMENT_VARIABLES[name as RunVariable], error.message));
    }
  }
  const port = Number(env["PORT"] ?? DEFAULTS.PORT);
  if (Number.isInteger(port) && port > 65535) problems.push(refusal("PORT", env["PORT"]!, ENVIRONMENT_VARIABLES.PORT));
  for (const [key, value] of Object.entries(env)) {
    const [, variable] = FLOW_ENTRIES.find(([suffix]) => key.endsWith(suffix)) ?? [];
    if (variable?.schema && "enum" in variable.schema && !variable.schema.enum.includes(value))
      problems.push(refusal(key, value, variable));
  }
  return problems;
}

/**
 * The provider's key goes to the provider alone (docs/reference/environment.md, "Where a secret may
 * go"): a FLOW_HEADERS value that carries it would send it to the target with every turn.
 */
function providerKeyInHeaders(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
): string[] {
  return PROVIDER_KEY_VARIABLES.flatMap((variable) => {
    const apiKey = env[variable];
    if (apiKey === undefined || apiKey.length < 8) return [];
    return Object.entries(headers)
      .filter(([, value]) => value.includes(apiKey))
      .map(
        ([name]) =>
          `FLOW_HEADERS has ${name} carrying ${variable}'s value (not shown), which would send the ` +
          `provider's key to the target; give the target its own credential.`,
      );
  });
}

/** Settings that need each other: a store's address, a live model's key, no recording under CI. */
function combinationProblems(env: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  if (env["SESSION_STORE"] === "MONGO" && !env["MONGO_URL"]) {
    problems.push("SESSION_STORE=MONGO needs MONGO_URL, e.g. mongodb://127.0.0.1:27017.");
  }
  const mode = env["FLOW_MODEL"];
  if ((mode === "live" || mode === "record") && !env["OPENAI_API_KEY"]) {
    problems.push(`FLOW_MODEL=${mode} needs OPENAI_API_KEY (any value for a local server that ignores it).`);
  }
  if ((mode === "record" || mode === "replay" || mode === "auto") && env["FLOW_BASE_URL"]) {
    problems.push(
      `FLOW_MODEL=${mode} tapes the models of an app in this process, but ` +
        `FLOW_BASE_URL=${env["FLOW_BASE_URL"]} runs its models elsewhere; unset one of them.`,
    );
  }
  if (env["FLOW_TARGET"] && env["FLOW_BASE_URL"]) {
    problems.push(
      `FLOW_TARGET=${env["FLOW_TARGET"]} and FLOW_BASE_URL=${env["FLOW_BASE_URL"]} both name the ` +
        `server to play against; pick one: FLOW_TARGET for a target of flowcheck.config.json, or ` +
        `FLOW_BASE_URL for a flowcheck server at that URL.`,
    );
  }
  if ((env["FLOW_PRICE_PER_MTOK_IN"] === undefined) !== (env["FLOW_PRICE_PER_MTOK_OUT"] === undefined)) {
    problems.push(
      "FLOW_PRICE_PER_MTOK_IN and FLOW_PRICE_PER_MTOK_OUT go together: set both (in dollars per " +
        "million tokens) for a cost estimate, or neither.",
    );
  }
  // Every repeat would record the same file at once: two writers on one cassette, the last one winning.
  if (mode === "record" && Number(env["FLOW_REPEAT"] ?? DEFAULTS.FLOW_REPEAT) > 1) {
    problems.push(
      `FLOW_MODEL=record with FLOW_REPEAT=${env["FLOW_REPEAT"]} is refused: each repeat would write ` +
        `the same cassette. Record once (FLOW_REPEAT=1), then repeat with FLOW_MODEL=live or replay.`,
    );
  }
  if (mode === "record" && env["CI"]) {
    problems.push(
      "FLOW_MODEL=record is refused under CI (CI is set): CI replays cassettes and never calls a live " +
        "model. Record on a workstation and commit the cassette.",
    );
  }
  return problems;
}

/** Variables by name; an undefined value is unset. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The process's environment as it is now, its unset variables left out: the one place
 * `process.env` is read. A command reads it once and hands it down; nothing writes it.
 */
export function environment(): Readonly<Record<string, string>> {
  return Object.freeze(definedIn(process.env));
}

/**
 * Reads and checks the environment once: `source` (the process's) over `defaults` (a scenario's
 * `env`), never writing either. Every problem is reported in one `config_invalid` error, each
 * naming the variable, the value found and what is allowed.
 */
export function loadConfig(
  source: Environment = environment(),
  defaults: Readonly<Record<string, string>> = {},
): Config {
  const env: Record<string, string> = {};
  // A variable set in `source` wins over a default even when empty: `VAR= cmd` unsets a scenario's pin.
  for (const [key, value] of Object.entries({ ...defaults, ...definedIn(source) })) {
    // An empty value counts as unset, as it does in most shells' `VAR= cmd`.
    if (value !== "") env[key] = value;
  }
  const problems = envProblems(env);
  const requestHeaders = headersOf(env["FLOW_HEADERS"], problems);
  problems.push(...providerKeyInHeaders(requestHeaders, env));
  const apiToken = apiTokenOf(env["FLOW_API_TOKEN"], problems);
  problems.push(...combinationProblems(env));
  if (problems.length) {
    throw new FlowcheckError("config_invalid", `The environment is not valid:\n- ${problems.join("\n- ")}`, {
      details: problems,
    });
  }
  return Object.freeze({
    host: env["HOST"] ?? DEFAULTS.HOST,
    port: Number(env["PORT"] ?? DEFAULTS.PORT),
    sessionStore: (env["SESSION_STORE"] ?? DEFAULTS.SESSION_STORE) as Config["sessionStore"],
    sqlitePath: env["SQLITE_PATH"],
    mongo: Object.freeze({ url: env["MONGO_URL"], database: env["DOCUMENT_DB"] ?? DEFAULTS.DOCUMENT_DB }),
    flowModel: env["FLOW_MODEL"] as ModelMode | undefined,
    openai: Object.freeze({
      apiKey: env["OPENAI_API_KEY"],
      baseURL: env["OPENAI_BASE_URL"],
      model: env["OPENAI_MODEL"] ?? DEFAULTS.OPENAI_MODEL,
      maxRetries: Number(env["OPENAI_MAX_RETRIES"] ?? DEFAULTS.OPENAI_MAX_RETRIES),
      timeoutMs: Number(env["OPENAI_TIMEOUT_MS"] ?? DEFAULTS.OPENAI_TIMEOUT_MS),
    }),
    judge: Object.freeze({
      mode: (env["JUDGE"] ?? DEFAULTS.JUDGE) as Config["judge"]["mode"],
      model: env["JUDGE_MODEL"] ?? DEFAULTS.JUDGE_MODEL,
      cache: (env["JUDGE_CACHE"] ?? DEFAULTS.JUDGE_CACHE) === "on",
      samples: Number(env["JUDGE_SAMPLES"] ?? DEFAULTS.JUDGE_SAMPLES),
      unstable: (env["JUDGE_UNSTABLE"] ?? DEFAULTS.JUDGE_UNSTABLE) as Config["judge"]["unstable"],
      minAgreement: env["JUDGE_MIN_AGREEMENT"] === undefined ? undefined : Number(env["JUDGE_MIN_AGREEMENT"]),
    }),
    user: userOf(env),
    turnTimeoutMs: Number(env["FLOW_TURN_TIMEOUT_MS"] ?? DEFAULTS.FLOW_TURN_TIMEOUT_MS),
    requestHeaders: Object.freeze(requestHeaders),
    apiToken,
    repeat: Number(env["FLOW_REPEAT"] ?? DEFAULTS.FLOW_REPEAT),
    passRate: Number(env["FLOW_PASS_RATE"] ?? DEFAULTS.FLOW_PASS_RATE),
    strengthMin: env["FLOW_STRENGTH_MIN"] === undefined ? undefined : Number(env["FLOW_STRENGTH_MIN"]),
    ci: Boolean(env["CI"]),
    github: Object.freeze({
      annotations: env["GITHUB_ACTIONS"] === "true",
      stepSummary: env["GITHUB_STEP_SUMMARY"] || undefined,
    }),
    targetUrl: env["FLOW_BASE_URL"],
    flowTarget: env["FLOW_TARGET"],
    limits: limitsOf(env),
    env: Object.freeze(env),
  });
}

/**
 * The user's model falls back on the flows' provider. Its key follows its address: with a
 * USER_BASE_URL of its own, only USER_API_KEY goes there, so OPENAI_API_KEY never reaches a host
 * it was not given for.
 */
function userOf(env: Readonly<Record<string, string>>): Config["user"] {
  const own = env["USER_BASE_URL"];
  return Object.freeze({
    model: env["USER_MODEL"] ?? DEFAULTS.USER_MODEL,
    baseURL: own ?? env["OPENAI_BASE_URL"],
    apiKey: env["USER_API_KEY"] ?? (own ? undefined : env["OPENAI_API_KEY"]),
  });
}

function limitsOf(env: Readonly<Record<string, string>>): RunLimitsConfig {
  const number = (name: string) => (env[name] === undefined ? undefined : Number(env[name]));
  const input = number("FLOW_PRICE_PER_MTOK_IN");
  const output = number("FLOW_PRICE_PER_MTOK_OUT");
  return Object.freeze({
    concurrency: number("FLOW_CONCURRENCY"),
    maxInflight: Number(env["OPENAI_MAX_INFLIGHT"] ?? DEFAULTS.OPENAI_MAX_INFLIGHT),
    maxRpm: number("OPENAI_MAX_RPM"),
    maxTokens: number("FLOW_MAX_TOKENS"),
    price: input === undefined || output === undefined ? undefined : Object.freeze({ input, output }),
  });
}

/**
 * A configuration derived from one already read: `source` is the run's environment (or a
 * configuration's `env`), with `defaults` (a scenario's `env`) under it and `overrides` (a pinned
 * clock, a tape's mode) over it. The process's environment is not read again.
 */
export function derivedConfig(
  source: Environment,
  { defaults = {}, overrides = {} }: { defaults?: Readonly<Record<string, string>>; overrides?: Environment } = {},
): Config {
  return loadConfig({ ...source, ...overrides }, defaults);
}

function definedIn(source: Environment): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The mode a flow runs in: its own `<FLOW>_USE_SCRIPTED_MODEL` pin, else `FLOW_MODEL`, else `fallback`. */
export function modelModeOf(config: Config, envPrefix: string, fallback: ModelMode): ModelMode {
  const pin = config.env[`${envPrefix}_USE_SCRIPTED_MODEL`];
  if (pin === "1" || pin === "true") return "scripted";
  return config.flowModel ?? fallback;
}

/**
 * Whether the new-flow checklist fails the run for the flow with this prefix: `FLOW_CHECKLIST=strict`
 * for every flow, or the flow's own `<FLOW>_STRICT_CHECKLIST=1`, in `env` (the run's environment),
 * read by the flowcheck test process that prints the checklist.
 */
export function checklistStrictOf(envPrefix: string, env: Environment): boolean {
  const mode = env["FLOW_CHECKLIST"];
  if (mode && !(CHECKLIST_MODES as readonly string[]).includes(mode)) {
    throw new FlowcheckError(
      "config_invalid",
      `The environment is not valid:\n- ${refusal("FLOW_CHECKLIST", mode, ENVIRONMENT_VARIABLES.FLOW_CHECKLIST)}`,
    );
  }
  const pin = env[`${envPrefix}_STRICT_CHECKLIST`];
  return mode === "strict" || pin === "1" || pin === "true";
}
