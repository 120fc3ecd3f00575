import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadScenario, runScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { secretsOf } from "../../../src/testing/report/without-secrets.ts";
import { pinsOf } from "../../../src/testing/target/target-pins.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { envWith } from "../../support/env-with.ts";
import { writeScenarioSpec } from "../../support/scenario-spec.ts";
import { tempDir } from "../../support/temp-path.ts";
import { startTestServer, type TestServer } from "../../support/test-server.ts";
import { textRequest } from "../../support/text-request.ts";
import { collect } from "../../support/fake-chat-server.ts";
import { BASIC_FLOW_FILE, result, runSpec, tapResults, TURN_TESTS } from "../../support/child-run.ts";

// A server locked with an API token (`npm start` with FLOW_API_TOKEN) is tested as any other
// running server, with FLOW_BASE_URL, once FLOW_HEADERS carries the token; the apps a run boots in
// its own process are never locked.

const TOKEN = "locked-target-token-8d2f6a1c0b9e";
const START_TEST = "the target starts, serves the flow, and the persisted contract can be checked";
const basicFlow = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);

/** A locked BasicFlow server in this process, closed after `body`. */
async function withLockedServer(body: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry], apiToken: TOKEN });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** The fixture BasicFlow scenario run as `npm run test:flows` runs it, by node:test in a child process, against `server`. */
async function playInChild(server: TestServer, env: Record<string, string>) {
  const dir = await tempDir("locked-target");
  try {
    const spec = writeScenarioSpec(dir.path, "locked", BASIC_FLOW_FILE, join(dir.path, "artifacts"));
    return await runSpec(spec, { FLOW_BASE_URL: server.url, SQLITE_PATH: server.sqlitePath, ...env });
  } finally {
    dir.remove();
  }
}

// Each has its own locked server, folder and child run, so the two run side by side.
describe("a locked server played by a child run with FLOW_BASE_URL", { concurrency: 2 }, () => {
  test("a scenario played against a locked server with FLOW_BASE_URL, and FLOW_HEADERS carrying the token, passes with its persisted contract checked", {
    timeout: 120_000,
  }, async () => {
    await withLockedServer(async (server) => {
      const run = await playInChild(server, { FLOW_HEADERS: JSON.stringify({ Authorization: `Bearer ${TOKEN}` }) });
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      const results = tapResults(run.stdout);
      for (const name of [START_TEST, ...TURN_TESTS, "final state"])
        assert.equal(result(results, name).ok, true, `${name}\n${run.stdout}`);
      assert.equal(result(results, START_TEST).directive, undefined, "the persisted contract is checked, not skipped");
      assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN), "the run printed the token");
    });
  });

  test("without FLOW_HEADERS a scenario against a locked server fails at GET /ai/flows with the 401, saying to set FLOW_HEADERS, and plays no turn", {
    timeout: 120_000,
  }, async () => {
    await withLockedServer(async (server) => {
      const run = await playInChild(server, { FLOW_HEADERS: "" });
      assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
      const results = tapResults(run.stdout);
      assert.equal(result(results, START_TEST).ok, false);
      // The failure as its test prints it (TAP quotes it whole on one line).
      assert.match(
        run.stdout,
        /GET http:\/\/127\.0\.0\.1:\d+\/ai\/flows answered 401 \(unauthorized: The request has no Authorization header, and this server's API is locked; send Authorization: Bearer <the FLOW_API_TOKEN the server was started with>\.\); the server wants credentials this run did not send, or refused those it sent: give them with FLOW_HEADERS/,
      );
      for (const name of TURN_TESTS) assert.match(result(results, name).directive ?? "", /^SKIP/, name);
    });
  });
});
test("played in this process without the headers, a scenario against a locked server fails its first turn with 401 unauthorized; with them it passes", async () => {
  await withLockedServer(async (server) => {
    const env = envWith({
      FLOW_BASE_URL: server.url,
      SQLITE_PATH: server.sqlitePath,
      SESSION_STORE: undefined,
      FLOW_HEADERS: undefined,
    });
    for (const headers of [undefined, { Authorization: `Bearer ${TOKEN}` }]) {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        played = await collect(runScenario(basicFlow, target, headers ? { headers } : {}));
      } finally {
        await target.close();
      }
      if (headers) {
        assert.deepEqual(
          played.turns.map((turn) => turn.outcome),
          basicFlow.scenario.turns.map(() => "passed"),
        );
        continue;
      }
      assert.equal(played.turns[0]!.outcome, "failed");
      assert.match(
        played.turns[0]!.failure ?? "",
        /expected status 200, got 401 \(unauthorized: The request has no Authorization header, and this server's API is locked; send Authorization: Bearer/,
      );
    }
  });
});

test("an in-process target booted with FLOW_API_TOKEN in its environment is not locked", async () => {
  const target = await startScenarioTarget(basicFlow, {
    flows: [basicFlowEntry],
    env: envWith({ FLOW_BASE_URL: undefined, FLOW_HEADERS: undefined, FLOW_API_TOKEN: TOKEN }),
  });
  try {
    assert.equal(target.capabilities?.config?.apiToken, TOKEN, "the target was read with the token");
    const flows = await textRequest(`${target.description.baseUrl}/ai/flows`);
    assert.equal(flows.status, 200, flows.text);
    const played = await collect(runScenario(basicFlow, target));
    assert.deepEqual(
      played.turns.map((turn) => turn.outcome),
      basicFlow.scenario.turns.map(() => "passed"),
    );
  } finally {
    await target.close();
  }
});

test("FLOW_API_TOKEN is a secret to every redaction list: the report page's secrets, and a run's pins", () => {
  assert.deepEqual(secretsOf({ FLOW_API_TOKEN: TOKEN, HOME: "/home/someone" }), [TOKEN]);
  assert.deepEqual(pinsOf({ FLOW_API_TOKEN: TOKEN, FLOW_MODEL: "scripted" }, ["FLOW_API_TOKEN"]), {
    FLOW_API_TOKEN: "[redacted]",
    FLOW_MODEL: "scripted",
  });
});
