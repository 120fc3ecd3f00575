import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { startMastraServer, type MastraServer } from "../support/mastra-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A project with no flow of ours: flowcheck.config.json names the fixture's real Mastra server as
// targets of kind mastra, one per mode, and flowcheck test plays the scenario files against them.
const SCENARIOS = resolve(import.meta.dirname, "..", "fixtures", "mastra-scenarios");

describe("flowcheck test against a Mastra target", () => {
  let server: MastraServer;
  let dir: { path: string; remove(): void };

  before(async () => {
    server = await startMastraServer();
    dir = await tempDir("run-mastra-target");
    cpSync(SCENARIOS, join(dir.path, "conversations"), { recursive: true });
    const desk = { kind: "mastra", baseUrl: server.baseUrl, workingMemory: "" };
    const targets = {
      desk,
      "desk-generate": { ...desk, mode: "generate" },
      "desk-slow": { ...desk, timeoutMs: 1000 },
    };
    writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  });

  after(async () => {
    dir?.remove();
    await server?.close();
  });

  function runSpecs(target: string, ...args: string[]): Promise<ChildRun> {
    return runFlowcheck(["test", ...args, "--test-reporter=spec"], { FLOW_TARGET: target }, undefined, dir.path);
  }

  function resultsOf(): RunResults {
    return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
  }

  /** `conversations/<file>:<line>` of the turn labelled `label`, as a failure names it. */
  function lineOf(file: string, label: string): string {
    const lines = readFileSync(join(SCENARIOS, file), "utf8").split("\n");
    const line = lines.findIndex((text) => text.includes(`"label": "${label}"`)) + 1;
    assert.ok(line > 0, `${file} has no turn labelled ${label}`);
    return `conversations/${file}:${line}`;
  }

  for (const target of ["desk", "desk-generate"]) {
    test(`a five-turn scenario passes on ${target}: each turn's tool calls with their arguments and outputs, the stored thread, the working memory`, async () => {
      const run = await runSpecs(target, "conversations/passing");
      const output = run.stdout + run.stderr;
      assert.equal(run.code, 0, output);
      const [conversation] = resultsOf().conversations;
      assert.equal(conversation?.outcome, "passed", output);
      assert.equal(conversation.target?.baseUrl, server.baseUrl);
      assert.equal(conversation.turns.length, 5);
      const outcome = (name: string) =>
        conversation.turns.map((turn) => turn.checks.find((check) => check.name === name)?.outcome);
      assert.deepEqual(outcome("expectToolCalls"), ["passed", "passed", "passed", "passed", undefined]);
      assert.deepEqual(outcome("stored messages"), Array(5).fill("passed"));
      assert.deepEqual(outcome("turns"), Array(5).fill("passed"));
      assert.deepEqual(outcome("expectedActiveStep"), Array(5).fill("skipped"));
      const mode = target === "desk" ? "stream" : "generate";
      const first = conversation.turns[0]!;
      assert.equal(first.request?.path, `/api/agents/tripDesk/${mode}`);
      assert.deepEqual((first.request?.body as { messages?: unknown }).messages, "What is the weather in Lisbon?");
      assert.match(run.stdout, /^1 conversation: 1 passed, 0 failed, 0 skipped; turns 5 passed, 0 failed, 0 skipped/m);
      // An agent has no steps and its thread no end: the checklist asks for no refusal that stays on a
      // step, no save that moves on, no completed run, and counts the tools the answers reported.
      const results = resultsOf();
      assert.equal(results.coverage?.["tripDesk"]?.targetKind, "mastra");
      const points = new Map(results.checklist?.[0]?.points.map((point) => [point.id, point]));
      for (const id of ["4", "5", "7"]) {
        assert.equal(points.get(id)?.status, "not applicable", id);
        assert.match(points.get(id)?.detail ?? "", /^a Mastra agent/);
      }
      assert.equal(points.get("tools")?.status, "proved");
    });
  }

  test("a wrong argument, a tool the turn did not call, a wrong working memory, an unknown agent, an error chunk and a hung model each fail at their turn's file:line", async () => {
    const run = await runSpecs("desk", "conversations/failing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const failures = [
      [
        "failing/wrong-arg.scenario.json",
        "asks the weather",
        /expectToolCalls\[0\] \{"name":"lookupWeather","args":\{"city":"Porto"\}\} was not called: lookupWeather \(call 1 of the turn\) differs: args\.city: expected "Porto", found "Lisbon"; the turn called lookupWeather\(\{"city":"Lisbon"\}\) → \{"city":"Lisbon","tempC":21\}/,
      ],
      [
        "failing/missing-tool.scenario.json",
        "books a table",
        /expectToolCalls\[0\] \{"name":"lookupWeather"\} was not called: the turn did not call lookupWeather; the turn called bookTable\(\{"restaurant":"Tasca","people":4\}\)/,
      ],
      ["failing/wrong-state.scenario.json", "gives a name", /state\.name: expected "Grace", found "Ada"/],
      [
        "failing/unknown-agent.scenario.json",
        "asks the weather",
        /targets\.desk \(http:\/\/127\.0\.0\.1:\d+\) has no agent "travelDesk"; its agents are tripDesk\./,
      ],
      [
        "failing/model-error.scenario.json",
        "crashes the model",
        /POST http:\/\/127\.0\.0\.1:\d+\/api\/agents\/tripDesk\/stream answered 200, but the stream has an error chunk: "the model crashed"/,
      ],
      [
        "failing/hangs.scenario.json",
        "hangs the model",
        /POST http:\/\/127\.0\.0\.1:\d+\/api\/agents\/tripDesk\/stream gave no whole answer within 1000 ms; .*raise targets\.desk-slow\.timeoutMs/,
      ],
    ] as const;
    const results = resultsOf();
    for (const [file, label, why] of failures) {
      assert.match(
        output,
        new RegExp(`${lineOf(file, label).replaceAll(".", "\\.")}: turn \\d+ '${label}': (turn \\d+: )?${why.source}`),
      );
      const conversation = results.conversations.find((c) => c.file === `conversations/${file}`);
      assert.equal(conversation?.outcome, "failed", output);
      assert.deepEqual(
        conversation!.turns.filter((turn) => turn.outcome === "failed").map((turn) => turn.label),
        [label],
      );
    }
    assert.doesNotMatch(server.output(), /outbound connection refused/);
  });
});
