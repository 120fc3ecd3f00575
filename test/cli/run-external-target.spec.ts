import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { fixtureScenario } from "../support/fixture-scenario.ts";
import { writeScenarioSpec } from "../support/scenario-spec.ts";
import { tempDir } from "../support/temp-path.ts";
import { startTestServer } from "../support/test-server.ts";

test("a spec of one file played against a server at FLOW_BASE_URL is in the run's results, every turn of it, and its summary counts it", async () => {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const dir = await tempDir("run-external-target");
  try {
    const scenario = JSON.parse(readFileSync(fixtureScenario("basic-flow"), "utf8")) as { turns: unknown[] };
    const file = join(dir.path, "basic-flow.scenario.json");
    writeFileSync(file, JSON.stringify(scenario));
    // The run's own artifacts folder (flowcheck test runs in the test's folder), so the conversation is the run's.
    const spec = writeScenarioSpec(dir.path, "basic-flow", file, join(dir.path, "test", ".tmp"));
    const run = await runFlowcheck(
      ["test", spec, "--test-reporter=tap"],
      { FLOW_BASE_URL: server.url, SQLITE_PATH: server.sqlitePath },
      undefined,
      dir.path,
    );

    const results = JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
    assert.equal(results.conversations.length, 1, run.stdout + run.stderr);
    const [conversation] = results.conversations;
    assert.equal(conversation!.ran, true);
    assert.equal(conversation!.outcome, "passed", conversation!.reason);
    assert.equal(conversation!.target?.baseUrl, server.url);
    assert.equal(conversation!.turns.length, scenario.turns.length);
    assert.ok(conversation!.turns.every((turn) => turn.outcome === "passed"));
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^1 conversation: 1 passed, 0 failed, 0 skipped; turns \d+ passed, 0 failed, 0 skipped/m);
  } finally {
    dir.remove();
    await server.close();
  }
});

test("a scenario with no spec whose target is a flowcheck server of flowcheck.config.json is played there, its sessions read from the target's sqlitePath", async () => {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const dir = await tempDir("run-flowcheck-target");
  try {
    const scenario = JSON.parse(readFileSync(fixtureScenario("basic-flow"), "utf8")) as { turns: unknown[] };
    mkdirSync(join(dir.path, "conversations"));
    writeFileSync(
      join(dir.path, "conversations", "basic-flow.scenario.json"),
      JSON.stringify({ ...scenario, target: "local" }),
    );
    const targets = { local: { kind: "flowcheck", baseUrl: server.url, sqlitePath: server.sqlitePath } };
    writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
    const run = await runFlowcheck(["test", "conversations", "--test-reporter=tap"], {}, undefined, dir.path);

    const results = JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [conversation] = results.conversations;
    assert.equal(conversation?.outcome, "passed", conversation?.reason);
    assert.equal(conversation!.target?.baseUrl, server.url);
    assert.equal(conversation!.turns.length, scenario.turns.length);
    // Read from the server's own store: the turn count is checked, as for FLOW_BASE_URL with SQLITE_PATH.
    const counted = conversation!.turns.filter((turn) =>
      turn.checks.some((c) => c.name === "turns" && c.outcome === "passed"),
    );
    assert.ok(counted.length > 0, JSON.stringify(conversation!.turns[0]?.checks));
  } finally {
    dir.remove();
    await server.close();
  }
});
