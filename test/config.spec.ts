import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig, modelModeOf } from "../src/config.ts";
import { ENVIRONMENT_VARIABLES } from "../src/environment-variables.ts";
import { isFlowcheckError } from "../src/errors.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(isFlowcheckError(error, "config_invalid"), `expected config_invalid, got ${String(error)}`);
    return error.details as string[];
  }
  assert.fail("loadConfig accepted the environment");
}

test("an empty environment gives the documented defaults", () => {
  const config = loadConfig({});
  assert.equal(config.host, "127.0.0.1");
  assert.equal(config.port, 3000);
  assert.equal(config.sessionStore, "SQLITE");
  assert.equal(config.sqlitePath, undefined);
  assert.equal(config.flowModel, undefined);
  assert.deepEqual(config.openai, {
    apiKey: undefined,
    baseURL: undefined,
    model: "gpt-4o-mini",
    maxRetries: 2,
    timeoutMs: 60000,
  });
});

test("the configuration is frozen once read", () => {
  const config = loadConfig({ PORT: "4000" });
  assert.ok(Object.isFrozen(config) && Object.isFrozen(config.openai) && Object.isFrozen(config.env));
  assert.throws(() => {
    (config as { port: number }).port = 1;
  }, TypeError);
});

test("an unknown FLOW_MODEL is refused with the list of valid values", () => {
  assert.deepEqual(problemsOf({ FLOW_MODEL: "replay-ish" }), [
    'FLOW_MODEL="replay-ish" is not valid: expected one of scripted, live, record, replay, auto, or unset.',
  ]);
});

test("every problem in the environment is reported at once, each naming its variable and value", () => {
  const problems = problemsOf({
    PORT: "eighty",
    SESSION_STORE: "REDIS",
    OPENAI_BASE_URL: "localhost:8080",
    OPENAI_MAX_RETRIES: "-1",
    BASIC_FLOW_USE_SCRIPTED_MODEL: "yes",
  });
  assert.equal(problems.length, 5, problems.join("\n"));
  for (const fragment of [
    'PORT="eighty"',
    'SESSION_STORE="REDIS"',
    'OPENAI_BASE_URL="localhost:8080"',
    'OPENAI_MAX_RETRIES="-1"',
    'BASIC_FLOW_USE_SCRIPTED_MODEL="yes"',
  ]) {
    assert.ok(
      problems.some((problem) => problem.startsWith(fragment)),
      `no problem starts with ${fragment}:\n${problems.join("\n")}`,
    );
  }
});

test("a port above 65535 is refused", () => {
  assert.deepEqual(problemsOf({ PORT: "70000" }), [
    'PORT="70000" is not valid: expected a whole number from 0 to 65535.',
  ]);
});

test("FLOW_MODEL=live without OPENAI_API_KEY is refused at start", () => {
  assert.match(problemsOf({ FLOW_MODEL: "live" })[0]!, /FLOW_MODEL=live needs OPENAI_API_KEY/);
});

test("an empty variable counts as unset", () => {
  const config = loadConfig({ FLOW_MODEL: "", PORT: "", OPENAI_MODEL: "" });
  assert.equal(config.flowModel, undefined);
  assert.equal(config.port, 3000);
  assert.equal(config.openai.model, "gpt-4o-mini");
});

test("FLOW_API_TOKEN is read as the API token; unset or empty, there is none and the API is open", () => {
  assert.equal(loadConfig({ FLOW_API_TOKEN: "0123456789abcdef-~!#" }).apiToken, "0123456789abcdef-~!#");
  assert.equal(loadConfig({}).apiToken, undefined);
  assert.equal(loadConfig({ FLOW_API_TOKEN: "" }).apiToken, undefined);
});

test("a FLOW_API_TOKEN that is short or holds whitespace, a control character or non-ASCII is refused with config_invalid, never quoted", () => {
  const hint = "use 16 or more letters, digits and punctuation, e.g. the output of `openssl rand -hex 32`.";
  const cases: Record<string, string> = {
    "short-secret": `FLOW_API_TOKEN is shorter than 16 characters (its value is not shown: it is a secret), too easy to guess; ${hint}`,
    "long-enough secret-with-space": `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}`,
    "long-enough-secret-with-tab\t": `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}`,
    "long-enough-secret-\u0000-nul": `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}`,
    "long-enough-secret-ümlaut": `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}`,
    "   ": `FLOW_API_TOKEN holds a space, a control character or a character outside ASCII (its value is not shown: it is a secret); ${hint}`,
  };
  for (const [token, problem] of Object.entries(cases)) {
    assert.deepEqual(problemsOf({ FLOW_API_TOKEN: token }), [problem], JSON.stringify(token));
    try {
      loadConfig({ FLOW_API_TOKEN: token });
    } catch (error) {
      assert.ok(!(error as Error).message.includes(token), `the message quotes ${JSON.stringify(token)}`);
    }
  }
});

test("a flow's own scripted pin wins over FLOW_MODEL, which wins over the fallback", () => {
  const pinned = loadConfig({ FLOW_MODEL: "live", OPENAI_API_KEY: "k", BASIC_FLOW_USE_SCRIPTED_MODEL: "1" });
  assert.equal(modelModeOf(pinned, "BASIC_FLOW", "scripted"), "scripted");
  assert.equal(modelModeOf(pinned, "HOTEL_FLOW", "scripted"), "live");
  const unpinned = loadConfig({ BASIC_FLOW_USE_SCRIPTED_MODEL: "0" });
  assert.equal(modelModeOf(unpinned, "BASIC_FLOW", "live"), "live");
  assert.equal(modelModeOf(unpinned, "BASIC_FLOW", "scripted"), "scripted");
});

test("the judge, repeat and CI settings are read with their defaults", () => {
  const defaults = loadConfig({});
  assert.deepEqual(defaults.judge, {
    mode: "auto",
    model: "gpt-4o",
    cache: true,
    samples: 1,
    unstable: "report",
    minAgreement: undefined,
  });
  assert.equal(defaults.repeat, 1);
  assert.equal(defaults.passRate, 1);
  assert.equal(defaults.ci, false);
  const set = loadConfig({
    JUDGE: "required",
    JUDGE_MODEL: "local-judge",
    JUDGE_CACHE: "off",
    JUDGE_SAMPLES: "5",
    JUDGE_UNSTABLE: "fail",
    JUDGE_MIN_AGREEMENT: "0.9",
    FLOW_REPEAT: "5",
    FLOW_PASS_RATE: "0.8",
    CI: "true",
  });
  assert.deepEqual(set.judge, {
    mode: "required",
    model: "local-judge",
    cache: false,
    samples: 5,
    unstable: "fail",
    minAgreement: 0.9,
  });
  assert.equal(set.repeat, 5);
  assert.equal(set.passRate, 0.8);
  assert.equal(set.ci, true);
});

test("the simulated user's model defaults to gpt-4o-mini on the flows' provider and key", () => {
  assert.deepEqual(loadConfig({}).user, { model: "gpt-4o-mini", baseURL: undefined, apiKey: undefined });
  const shared = loadConfig({ OPENAI_API_KEY: "sk-flows", OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" });
  assert.deepEqual(shared.user, { model: "gpt-4o-mini", baseURL: "http://127.0.0.1:8080/v1", apiKey: "sk-flows" });
  const ownKey = loadConfig({ OPENAI_API_KEY: "sk-flows", USER_API_KEY: "sk-user", USER_MODEL: "small-user" });
  assert.deepEqual(ownKey.user, { model: "small-user", baseURL: undefined, apiKey: "sk-user" });
  assert.ok(Object.isFrozen(shared.user));
});

test("USER_BASE_URL takes USER_API_KEY alone: OPENAI_API_KEY never goes to the user's own host", () => {
  const base = { OPENAI_API_KEY: "sk-flows", USER_BASE_URL: "http://127.0.0.1:9090/v1" };
  assert.deepEqual(loadConfig(base).user, {
    model: "gpt-4o-mini",
    baseURL: "http://127.0.0.1:9090/v1",
    apiKey: undefined,
  });
  assert.equal(loadConfig({ ...base, USER_API_KEY: "sk-user" }).user.apiKey, "sk-user");
});

test("a bad USER_BASE_URL or an empty-valued USER_MODEL is refused or unset, and USER_API_KEY in FLOW_HEADERS is refused unquoted", () => {
  assert.deepEqual(problemsOf({ USER_BASE_URL: "127.0.0.1:9090" }), [
    'USER_BASE_URL="127.0.0.1:9090" is not valid: expected an http:// or https:// URL.',
  ]);
  assert.equal(loadConfig({ USER_MODEL: "" }).user.model, "gpt-4o-mini");
  const problems = problemsOf({ USER_API_KEY: "sk-user-0123456789", FLOW_HEADERS: '{"X-Key": "sk-user-0123456789"}' });
  assert.deepEqual(problems, [
    "FLOW_HEADERS has X-Key carrying USER_API_KEY's value (not shown), which would send the provider's key to the target; give the target its own credential.",
  ]);
});

test("bad judge and repeat settings are refused, naming each", () => {
  const problems = problemsOf({ JUDGE: "maybe", JUDGE_CACHE: "yes", FLOW_REPEAT: "0", FLOW_PASS_RATE: "1.5" });
  assert.deepEqual(
    problems.map((problem) => problem.split("=")[0]),
    ["JUDGE", "JUDGE_CACHE", "FLOW_REPEAT", "FLOW_PASS_RATE"],
  );
});

test("JUDGE_SAMPLES of an even number, 0 or not a number is refused naming the value and what to set; JUDGE_UNSTABLE names its two values", () => {
  const expected = "expected an odd whole number of samples, 1 or more, e.g. 3 (an even count can tie); unset for 1.";
  for (const value of ["2", "0", "10", "three", "-3", "03"])
    assert.deepEqual(problemsOf({ JUDGE_SAMPLES: value }), [`JUDGE_SAMPLES="${value}" is not valid: ${expected}`]);
  for (const value of ["1", "3", "11", "101"])
    assert.equal(loadConfig({ JUDGE_SAMPLES: value }).judge.samples, Number(value));
  assert.deepEqual(problemsOf({ JUDGE_UNSTABLE: "warn" }), [
    'JUDGE_UNSTABLE="warn" is not valid: expected one of report, fail.',
  ]);
});

test("recording is refused under CI, and needs a key", () => {
  assert.deepEqual(problemsOf({ FLOW_MODEL: "record", CI: "1", OPENAI_API_KEY: "k" }), [
    "FLOW_MODEL=record is refused under CI (CI is set): CI replays cassettes and never calls a live model. Record on a workstation and commit the cassette.",
  ]);
  assert.match(problemsOf({ FLOW_MODEL: "record" })[0]!, /FLOW_MODEL=record needs OPENAI_API_KEY/);
  assert.equal(loadConfig({ FLOW_MODEL: "replay", CI: "1" }).flowModel, "replay");
});

test("SESSION_STORE=MONGO needs MONGO_URL, and reads DOCUMENT_DB with its default", () => {
  assert.deepEqual(problemsOf({ SESSION_STORE: "MONGO" }), [
    "SESSION_STORE=MONGO needs MONGO_URL, e.g. mongodb://127.0.0.1:27017.",
  ]);
  assert.deepEqual(loadConfig({ SESSION_STORE: "MONGO", MONGO_URL: "mongodb://127.0.0.1:27017" }).mongo, {
    url: "mongodb://127.0.0.1:27017",
    database: "flowcheck",
  });
  assert.equal(problemsOf({ MONGO_URL: "http://x", DOCUMENT_DB: "a.b" }).length, 2);
});

test("the run's limits are read with their defaults: 16 requests in flight, no concurrency, rate, budget or price set", () => {
  assert.deepEqual(loadConfig({}).limits, {
    concurrency: undefined,
    maxInflight: 16,
    maxRpm: undefined,
    maxTokens: undefined,
    price: undefined,
  });
  const set = loadConfig({
    FLOW_CONCURRENCY: "3",
    OPENAI_MAX_INFLIGHT: "4",
    OPENAI_MAX_RPM: "500",
    FLOW_MAX_TOKENS: "100000",
    FLOW_PRICE_PER_MTOK_IN: "0.15",
    FLOW_PRICE_PER_MTOK_OUT: "0.6",
  });
  assert.deepEqual(set.limits, {
    concurrency: 3,
    maxInflight: 4,
    maxRpm: 500,
    maxTokens: 100000,
    price: { input: 0.15, output: 0.6 },
  });
});

test("bad limits are refused, each naming its variable, its value and what is allowed", () => {
  const problems = problemsOf({
    FLOW_CONCURRENCY: "0",
    OPENAI_MAX_INFLIGHT: "many",
    OPENAI_MAX_RPM: "-5",
    FLOW_MAX_TOKENS: "1e6",
    FLOW_PRICE_PER_MTOK_IN: "$1",
    FLOW_PRICE_PER_MTOK_OUT: "2",
  });
  assert.deepEqual(
    problems.map((problem) => problem.split("=")[0]),
    ["FLOW_CONCURRENCY", "OPENAI_MAX_INFLIGHT", "OPENAI_MAX_RPM", "FLOW_MAX_TOKENS", "FLOW_PRICE_PER_MTOK_IN"],
  );
  assert.match(problems[0]!, /FLOW_CONCURRENCY="0" is not valid: expected a whole number of conversations, 1 or more/);
  assert.match(problems[4]!, /FLOW_PRICE_PER_MTOK_IN="\$1" is not valid: expected dollars per million input tokens/);
});

test("a price for one direction only is refused: a cost estimate needs both", () => {
  assert.deepEqual(problemsOf({ FLOW_PRICE_PER_MTOK_IN: "0.15" }), [
    "FLOW_PRICE_PER_MTOK_IN and FLOW_PRICE_PER_MTOK_OUT go together: set both (in dollars per million tokens) for a cost estimate, or neither.",
  ]);
});

test("FLOW_MODEL=auto needs no key, is allowed under CI and with repeats (a conversation that would record is refused then), and is refused with FLOW_BASE_URL", () => {
  assert.equal(loadConfig({ FLOW_MODEL: "auto" }).flowModel, "auto");
  assert.equal(loadConfig({ FLOW_MODEL: "auto", CI: "true" }).ci, true);
  assert.equal(loadConfig({ FLOW_MODEL: "auto", FLOW_REPEAT: "3" }).repeat, 3);
  assert.deepEqual(problemsOf({ FLOW_MODEL: "auto", FLOW_BASE_URL: "http://127.0.0.1:3000" }), [
    "FLOW_MODEL=auto tapes the models of an app in this process, but FLOW_BASE_URL=http://127.0.0.1:3000 runs its models elsewhere; unset one of them.",
  ]);
});

test("recording with repeats is refused: every repeat would write the same cassette", () => {
  const [problem] = problemsOf({ FLOW_MODEL: "record", OPENAI_API_KEY: "k", FLOW_REPEAT: "3" });
  assert.match(
    problem!,
    /^FLOW_MODEL=record with FLOW_REPEAT=3 is refused: each repeat would write the same cassette\. Record once \(FLOW_REPEAT=1\)/,
  );
  assert.equal(loadConfig({ FLOW_MODEL: "replay", FLOW_REPEAT: "3" }).repeat, 3);
});

test("no credential in the table of variables has a schema, so no refusal ever quotes one: each is checked by code that never shows it", () => {
  const credentials = Object.entries(ENVIRONMENT_VARIABLES).filter(([name]) =>
    /_(KEY|TOKEN|SECRET|PASSWORD|HEADERS)$/.test(name),
  );
  assert.deepEqual(credentials.map(([name]) => name).sort(), [
    "FLOW_API_TOKEN",
    "FLOW_HEADERS",
    "OPENAI_API_KEY",
    "USER_API_KEY",
  ]);
  assert.deepEqual(
    credentials.filter(([, variable]) => "schema" in variable).map(([name]) => name),
    [],
  );
});

test("FLOW_TARGET is read as the target of the scenarios that name none; unset, there is none", () => {
  assert.equal(loadConfig({ FLOW_TARGET: "staging" }).flowTarget, "staging");
  assert.equal(loadConfig({}).flowTarget, undefined);
});

test("FLOW_TARGET with a recording or replaying FLOW_MODEL is read: the target's judge calls are what gets taped", () => {
  assert.equal(loadConfig({ FLOW_TARGET: "staging", FLOW_MODEL: "replay" }).flowModel, "replay");
  assert.equal(
    loadConfig({ FLOW_TARGET: "staging", FLOW_MODEL: "record", OPENAI_API_KEY: "test-key" }).flowModel,
    "record",
  );
});

test("FLOW_TARGET with FLOW_BASE_URL, or that is no target's name, is refused", () => {
  assert.deepEqual(problemsOf({ FLOW_TARGET: "staging", FLOW_BASE_URL: "http://127.0.0.1:3000" }), [
    "FLOW_TARGET=staging and FLOW_BASE_URL=http://127.0.0.1:3000 both name the server to play against; pick one: FLOW_TARGET for a target of flowcheck.config.json, or FLOW_BASE_URL for a flowcheck server at that URL.",
  ]);
  assert.deepEqual(problemsOf({ FLOW_TARGET: "Staging" }), [
    'FLOW_TARGET="Staging" is not valid: expected the name of a target in flowcheck.config.json: lower-case letters, digits and dashes.',
  ]);
});
