import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig, modelModeOf } from "../src/config.ts";
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
  assert.deepEqual(config.openai, { apiKey: undefined, baseURL: undefined, model: "gpt-4o-mini", maxRetries: 2, timeoutMs: 60000 });
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
    'FLOW_MODEL="replay-ish" is not valid: expected one of scripted, live, or unset.',
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
  for (const fragment of ['PORT="eighty"', 'SESSION_STORE="REDIS"', 'OPENAI_BASE_URL="localhost:8080"', 'OPENAI_MAX_RETRIES="-1"', 'BASIC_FLOW_USE_SCRIPTED_MODEL="yes"']) {
    assert.ok(problems.some((problem) => problem.startsWith(fragment)), `no problem starts with ${fragment}:\n${problems.join("\n")}`);
  }
});

test("a port above 65535 is refused", () => {
  assert.deepEqual(problemsOf({ PORT: "70000" }), ['PORT="70000" is not valid: expected a whole number from 0 to 65535.']);
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

test("a flow's own scripted pin wins over FLOW_MODEL, which wins over the fallback", () => {
  const pinned = loadConfig({ FLOW_MODEL: "live", OPENAI_API_KEY: "k", BASIC_FLOW_USE_SCRIPTED_MODEL: "1" });
  assert.equal(modelModeOf(pinned, "BASIC_FLOW", "scripted"), "scripted");
  assert.equal(modelModeOf(pinned, "HOTEL_FLOW", "scripted"), "live");
  const unpinned = loadConfig({ BASIC_FLOW_USE_SCRIPTED_MODEL: "0" });
  assert.equal(modelModeOf(unpinned, "BASIC_FLOW", "live"), "live");
  assert.equal(modelModeOf(unpinned, "BASIC_FLOW", "scripted"), "scripted");
});
