import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import type { SessionView } from "../../../src/testing/checks/session-view.ts";
import {
  addToCoverage,
  coverageInOrder,
  mergeCoverage,
  reachOf,
  type FlowCoverage,
} from "../../../src/testing/report/flow-coverage.ts";
import { loadScenario, runScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { writeScenarioSpec } from "../../support/scenario-spec.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
import { collect } from "../../support/fake-chat-server.ts";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

/** The BasicFlow scenario cut to its first `turns` turns, written to `dir`, without final expectations. */
function firstTurns(dir: string, turns: number): string {
  const scenario = JSON.parse(readFileSync(fixtureScenario("basic-flow"), "utf8")) as Record<string, unknown> & {
    turns: unknown[];
  };
  for (const key of ["$schema", "finalState", "finalExecution", "finalChildren"]) delete scenario[key];
  scenario.turns = scenario.turns.slice(0, turns);
  const file = join(dir, `first-${turns}.scenario.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

/** The session a scenario of BasicFlow's first `turns` turns leaves stored, played in this process. */
async function storedAfter(turns: number): Promise<SessionView> {
  const dir = await tempDir("flow-coverage");
  try {
    const loaded = loadScenario(firstTurns(dir.path, turns), [BasicFlow]);
    const target = await startScenarioTarget(loaded, {
      flows: [basicFlowEntry],
      scratchDir: dir.path,
      env: envWith({ FLOW_BASE_URL: undefined }),
    });
    try {
      const played = await collect(runScenario(loaded, target));
      assert.equal(played.outcome, "passed");
      return played.final.stored!;
    } finally {
      await target.close();
    }
  } finally {
    dir.remove();
  }
}

test("coverage lists every step and tool of a flow and its children, and marks what a stored session reached", async () => {
  const coverage: FlowCoverage = {};
  addToCoverage(coverage, BasicFlow, await storedAfter(2));
  assert.deepEqual(coverage, {
    BasicFlow: {
      scenarios: 1,
      steps: { NameStep: true, WeatherStep: true, AddressStep: false },
      tools: {
        "NameStep.save_name": ["advance", "stay"],
        "WeatherStep.get_weather": [],
        "AddressStep.check_address": [],
      },
      transitions: ["NameStep→WeatherStep"],
    },
    AddressCheck: {
      childOf: "BasicFlow",
      scenarios: 0,
      steps: { NormalizeAddressStep: false },
      tools: { "NormalizeAddressStep.normalize_address": [] },
    },
  });
  assert.deepEqual(reachOf(coverage["BasicFlow"]!), {
    reached: "2/3 steps · 1/3 tools",
    never: [
      "steps never reached: AddressStep",
      "tools never called: WeatherStep.get_weather, AddressStep.check_address",
    ],
  });
  assert.deepEqual(reachOf(coverage["AddressCheck"]!), {
    reached: "0/1 steps · 0/1 tools",
    never: ["steps never reached: NormalizeAddressStep", "tools never called: NormalizeAddressStep.normalize_address"],
  });
});

test("merged coverage reaches what either reached and counts both runs' scenarios", async () => {
  const short: FlowCoverage = {};
  addToCoverage(short, BasicFlow, await storedAfter(2));
  const whole: FlowCoverage = {};
  addToCoverage(whole, BasicFlow, await storedAfter(6));
  const merged = mergeCoverage(mergeCoverage({}, short), whole);
  assert.deepEqual(
    coverageInOrder(merged).map(([flow, entry]) => [flow, entry.scenarios, reachOf(entry)]),
    [
      ["BasicFlow", 2, { reached: "3/3 steps · 3/3 tools", never: [] }],
      ["AddressCheck", 0, { reached: "1/1 steps · 1/1 tools", never: [] }],
    ],
  );
  assert.deepEqual(merged["AddressCheck"]!.tools, { "NormalizeAddressStep.normalize_address": ["complete", "stay"] });
  assert.deepEqual(merged["BasicFlow"]!.transitions, ["NameStep→WeatherStep", "WeatherStep→AddressStep"]);
});

test("flowcheck test merges what its processes' scenarios reached into test/.tmp/flow-coverage.json and closes with a line per flow saying how much", async () => {
  const dir = await tempDir("flow-coverage");
  try {
    const spec = writeScenarioSpec(dir.path, "first-two", firstTurns(dir.path, 2));
    const env = { ...process.env };
    for (const name of ["NODE_TEST_CONTEXT", "FLOW_BASE_URL", "FLOW_MODEL", "OPENAI_API_KEY", "FLOW_REPEAT"])
      delete env[name];
    // In the test's folder, so what it writes to test/.tmp/ is not written over the project's.
    const child = spawn(process.execPath, [join(ROOT, "src", "cli", "flowcheck.mjs"), "test", spec], {
      cwd: dir.path,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    assert.equal(code, 0, stdout);
    const summary = stdout.slice(stdout.indexOf("\nflows: the steps and tools the scenarios reached"));
    assert.match(summary, /^ {2}BasicFlow +2\/3 steps · 1\/3 tools( · |$)/m);
    assert.match(summary, /^ {4}AddressCheck +0\/1 steps · 0\/1 tools( · |$)/m);
    // Named on the flow's line, or in its checklist table where a registered flow of that name has one.
    assert.match(summary, /steps never reached: AddressStep|no scenario reached AddressStep/);
    assert.match(
      summary,
      /^results: test\/\.tmp\/run-results\.json \(flow coverage: test\/\.tmp\/flow-coverage\.json\)$/m,
    );
    const written = JSON.parse(
      readFileSync(join(dir.path, "test", ".tmp", "flow-coverage.json"), "utf8"),
    ) as FlowCoverage;
    assert.deepEqual(written["BasicFlow"]!.steps, { NameStep: true, WeatherStep: true, AddressStep: false });
  } finally {
    dir.remove();
  }
});
