import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import scenarioSchema from "../../../scenarios/scenario.schema.json" with { type: "json" };
import { RUN_VARIABLES } from "../../../src/config.ts";
import { isFlowcheckError } from "../../../src/errors.ts";
import { loadScenario } from "../../../src/testing/index.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";
import {
  isReservedVariable,
  RESERVED_PREFIXES,
  SCENARIO_RUN_SETTINGS,
  scenarioEnvOf,
  scenarioEnvProblems,
} from "../../../src/testing/scenario/scenario-env.ts";
import { repeatOf } from "../../../src/testing/node-test/repeat-of.ts";
import { suiteConfigOf } from "../../../src/testing/node-test/suite-config.ts";
import { startScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";

// A scenario's env configures the flow, never the run: no scenario file chooses the model, a
// credential, or where requests and sessions go.

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("scenario-env");
});
after(() => dir.remove());

function scenarioWith(env: Record<string, string>): Record<string, unknown> {
  return {
    flowName: "BasicFlow",
    env,
    turns: [{ label: "name", input: "John Wick", expectedActiveStep: "WeatherStep" }],
  };
}

/** The problems `loadScenario` refuses the scenario with, or [] when it loads. */
function problemsOf(name: string, content: Record<string, unknown>): string[] {
  const file = join(dir.path, `${name}.scenario.json`);
  writeFileSync(file, JSON.stringify(content, null, 2));
  try {
    loadScenario(file, [BasicFlow]);
    return [];
  } catch (error) {
    assert.ok(isFlowcheckError(error, "scenario_invalid"), String(error));
    assert.match(error.message, /no turn was run/);
    return error.details as string[];
  }
}

test("a scenario's env that names the provider's base URL, its key, the model mode, the store, FLOW_HEADERS or the judge is refused before any turn, each key named and sent to the run's environment", () => {
  const env = {
    OPENAI_BASE_URL: "http://127.0.0.1:45991/v1",
    OPENAI_API_KEY: "sk-from-a-scenario",
    FLOW_MODEL: "live",
    SQLITE_PATH: "/tmp/elsewhere.sqlite",
    MONGO_URL: "mongodb://127.0.0.1:27017",
    FLOW_HEADERS: "{}",
    FLOW_BASE_URL: "http://127.0.0.1:1",
    JUDGE: "required",
    JUDGE_MODEL: "gpt-4o",
    USER_BASE_URL: "http://127.0.0.1:2/v1",
    BASIC_FLOW_STRICT_CHECKLIST: "1",
  };
  const problems = problemsOf("run-settings", scenarioWith(env));
  assert.deepEqual(
    problems.map((problem) => /^env\.([A-Z_]+): /.exec(problem)?.[1]),
    Object.keys(env),
    problems.join("\n"),
  );
  for (const problem of problems) {
    assert.match(problem, /a run setting.*belongs in the run's environment/);
    assert.match(problem, /A scenario's env takes BASIC_FLOW_… and ADDRESS_CHECK_…/);
  }
  // The value of a refused key is never quoted: it may be a credential.
  assert.ok(!problems.join("\n").includes("sk-from-a-scenario"));
});

test("the flow's own settings, its child flows' and its pins load, and so do the turn timeout and the pass rate", () => {
  const env = {
    BASIC_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z",
    BASIC_FLOW_USE_SCRIPTED_MODEL: "1",
    BASIC_FLOW_API_TOKEN: "a flow's own setting, which its steps read",
    ADDRESS_CHECK_CURRENT_DATE: "2027-07-15T00:00:00.000Z",
    FLOW_TURN_TIMEOUT_MS: "5000",
    FLOW_PASS_RATE: "0.8",
  };
  assert.deepEqual(problemsOf("flow-settings", scenarioWith(env)), []);
});

test("a variable that is neither the flow's nor a run setting is refused as not the flow's, with did-you-mean against the names allowed", () => {
  const problems = problemsOf(
    "not-the-flows",
    scenarioWith({
      WEATHER_SERVICE_KEY: "k",
      BASIC_FLOW_CURENT_DATE: "x",
      FLOW_TURN_TIMEOUT: "5",
      BASIC_CURRENT_DATE: "x",
    }),
  );
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(
    problems[0]!,
    /^env\.WEATHER_SERVICE_KEY: not a setting of BasicFlow; a variable for anything but the flow belongs in the run's environment\./,
  );
  assert.doesNotMatch(problems[0]!, /Did you mean/);
  // A misspelt pin under the flow's own prefix is the flow's own setting: the flow may read any such name.
  assert.match(problems[1]!, /^env\.FLOW_TURN_TIMEOUT: a run setting.* Did you mean FLOW_TURN_TIMEOUT_MS\?$/);
  assert.match(
    problems[2]!,
    /^env\.BASIC_CURRENT_DATE: not a setting of BasicFlow.* Did you mean BASIC_FLOW_CURRENT_DATE\?$/,
  );
});

test("a flow whose name puts its variables in the run's namespace does not own them: Flow, Openai, Judge, User and FlowChart set none from a scenario", () => {
  for (const [flowName, key] of [
    ["Flow", "FLOW_MODEL"],
    ["Flow", "FLOW_CURRENT_DATE"],
    ["Openai", "OPENAI_BASE_URL"],
    ["Judge", "JUDGE_MODEL"],
    ["User", "USER_API_KEY"],
    ["FlowChart", "FLOW_CHART_CURRENT_DATE"],
    ["Sqlite", "SQLITE_PATH"],
    ["Mongo", "MONGO_URL"],
  ] as const) {
    const problems = scenarioEnvProblems({ [key]: "x" }, flowName, undefined);
    assert.equal(problems.length, 1, `${flowName} ${key}`);
    assert.match(problems[0]!, new RegExp(`^env\\.${key}: a run setting`), problems[0]);
  }
  assert.match(
    scenarioEnvProblems({ FLOW_CHART_CURRENT_DATE: "x" }, "FlowChart", undefined)[0]!,
    /FlowChart's variables begin with FLOW_CHART_, inside the run's own namespace/,
  );
});

test("the schema marks the same names reserved as the loader refuses, so an editor flags them", () => {
  const ajv = new Ajv2020({ strict: false });
  const envNames = ajv.compile({
    propertyNames: (scenarioSchema.properties.env as { propertyNames: object }).propertyNames,
  });
  const probes = [
    ...RUN_VARIABLES,
    ...SCENARIO_RUN_SETTINGS,
    ...RESERVED_PREFIXES.map((prefix) => `${prefix}ADDED_LATER`),
    "JUDGE",
    "TEA_FLOW_STRICT_CHECKLIST",
    "BASIC_FLOW_CURRENT_DATE",
    "BASIC_FLOW_USE_SCRIPTED_MODEL",
    "WEATHER_SERVICE_KEY",
    "FLOWCHART_X",
  ];
  assert.ok(RUN_VARIABLES.length > 25, "RUN_VARIABLES lists too few variables");
  const disagree = probes.filter((name) => envNames({ [name]: "x" }) === isReservedVariable(name));
  assert.deepEqual(disagree, [], "the schema's env propertyNames and isReservedVariable disagree on these");
});

test("every variable src/config.ts reads is a run variable, so a scenario cannot set one that a later change adds", () => {
  const config = readFileSync(join(ROOT, "src", "config.ts"), "utf8");
  const read = new Set([...config.matchAll(/(?:env|source)\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g)].map((match) => match[1]!));
  assert.ok(
    read.size > 20,
    `found only ${[...read].join(", ")}: the pattern no longer matches how src/config.ts reads the environment`,
  );
  assert.deepEqual(
    [...read].filter((name) => !RUN_VARIABLES.includes(name)),
    [],
  );
  for (const name of RUN_VARIABLES)
    if (!SCENARIO_RUN_SETTINGS.includes(name)) assert.ok(isReservedVariable(name), name);
});

test("a scenario made in code whose env sets a run setting starts no target, in this process or against FLOW_BASE_URL, and no config is read from it", async () => {
  const loaded: LoadedScenario = {
    file: "made-in-code.scenario.json",
    name: "made-in-code",
    scenario: {
      flowName: "BasicFlow",
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
      turns: [{ label: "name", input: "John Wick", expectedActiveStep: "WeatherStep" }],
    },
  };
  assert.throws(() => scenarioEnvOf(loaded), {
    code: "scenario_invalid",
    message: /made-in-code\.scenario\.json is not a valid scenario.*\n- env\.OPENAI_BASE_URL: a run setting/,
  });
  for (const env of [envWith({ FLOW_BASE_URL: undefined }), envWith({ FLOW_BASE_URL: "http://127.0.0.1:9" })]) {
    await assert.rejects(startScenarioTarget(loaded, { flows: [basicFlowEntry], scratchDir: dir.path, env }), {
      code: "scenario_invalid",
      message: /env\.OPENAI_BASE_URL/,
    });
  }
});

/** A one-turn BasicFlow scenario named `name` whose env sets `FLOW_PASS_RATE` to `passRate`. */
function withPassRate(name: string, passRate: string): LoadedScenario {
  return {
    file: `${name}.scenario.json`,
    name,
    scenario: {
      flowName: "BasicFlow",
      env: { FLOW_PASS_RATE: passRate },
      turns: [{ label: "name", input: "John Wick", expectedActiveStep: "WeatherStep" }],
    },
  };
}

test("a scenario's FLOW_PASS_RATE is the pass rate its repeats are held to, unless the environment sets one", () => {
  const loaded = withPassRate("flaky-judge", "0.5");
  const configOf = (env: Record<string, string>) => {
    const config = suiteConfigOf(loaded, env);
    assert.ok(!(config instanceof Error), String(config));
    return config;
  };
  assert.deepEqual(repeatOf(configOf({ FLOW_REPEAT: "4" })), { times: 4, passRate: 0.5 });
  assert.deepEqual(repeatOf(configOf({ FLOW_REPEAT: "4", FLOW_PASS_RATE: "1" })), { times: 4, passRate: 1 });
});

test("a suite's configuration that does not load is the error itself, every problem in it, for the suite's first test to throw", () => {
  const config = suiteConfigOf(withPassRate("bad-rate", "2"), { FLOW_REPEAT: "many" });
  assert.ok(config instanceof Error);
  assert.match(config.message, /FLOW_REPEAT/);
  assert.match(config.message, /FLOW_PASS_RATE/);
});
