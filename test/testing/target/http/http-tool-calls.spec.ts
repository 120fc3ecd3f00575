import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import { ScenarioRun } from "../../../../src/testing/run/scenario-run.ts";
import { loadScenario } from "../../../../src/testing/scenario/load-scenario.ts";
import type { HttpTargetEntry } from "../../../../src/testing/target/http/http-target-entry.ts";
import { startScenarioTarget } from "../../../../src/testing/target/scenario-target.ts";
import { CONTACT_STEPS } from "../../../support/contact-flow.ts";
import {
  startStatelessChatServer,
  statelessChatEntry,
  type StatelessChatServer,
} from "../../../support/stateless-chat-server.ts";
import { turnLocation } from "../../../support/turn-location.ts";

// expectToolCalls on an http target whose answers report the tools each turn called, played from
// fixture scenarios against the stateless chat server: its JSON answer lists the calls in its
// message's tool_calls ("openai") and, with their outputs, under `tools` (pointers); its stream
// carries them as tool call deltas.
const SCENARIOS = resolve(import.meta.dirname, "..", "..", "..", "fixtures", "http-target-scenarios");
const REPORTED = join(SCENARIOS, "contact-reported-tool-calls.scenario.json");
const OUTPUTS = join(SCENARIOS, "contact-tool-call-outputs.scenario.json");
const WRONG = join(SCENARIOS, "contact-wrong-tool-calls.scenario.json");

const POINTERS = { path: "/tools", name: "/name", args: "/arguments", output: "/output" };
const ENV = { FLOW_MODEL: "scripted", JUDGE: "off", FLOW_BASE_URL: undefined };

let server: StatelessChatServer;

before(async () => {
  server = await startStatelessChatServer();
});

after(async () => {
  await server?.close();
});

/** Scenario `file`, its target "tools" the stateless server read by `entry`, ready to play turn by turn. */
async function runOf(t: TestContext, file: string, entry: HttpTargetEntry): Promise<ScenarioRun> {
  const outline = { name: "ContactFlow", stepNames: CONTACT_STEPS, servedBy: server.url, kind: "http" as const };
  const loaded = loadScenario(file, [], { root: SCENARIOS, outline });
  const targets = { path: "flowcheck.config.json", targets: { tools: entry } };
  const target = await startScenarioTarget(loaded, { flows: [], env: ENV, targets });
  t.after(() => target.close());
  const run = new ScenarioRun(loaded, target, {});
  t.after(() => run.end());
  return run;
}

/** Every turn played, a failed one included, so that each turn's own failure is seen. */
async function playEach(run: ScenarioRun) {
  const reports = [];
  for (let index = 0; index < run.loaded.scenario.turns.length; index++) reports.push(await run.playTurn(index));
  return reports;
}

const FORMS = [
  {
    form: 'a JSON answer read by "answer.toolCalls": "openai"',
    entry: () => statelessChatEntry(server.url, { toolCalls: "openai" }),
    ended: "no output in the answer",
  },
  {
    form: "a JSON answer read by answer.toolCalls pointers",
    entry: () => statelessChatEntry(server.url, { toolCalls: POINTERS }),
    ended: '{"valid":false}',
  },
  {
    form: "an openai-chat stream",
    entry: () => statelessChatEntry(server.url, { stream: true }),
    ended: "no output in the answer",
  },
];

for (const { form, entry, ended } of FORMS) {
  describe(`expectToolCalls on ${form}`, () => {
    test("passes on turns that called the expected tools with those arguments, in order", async (t) => {
      const run = await runOf(t, REPORTED, entry());
      const reports = await playEach(run);
      assert.deepEqual(
        reports.map((report) => [report.outcome, report.failure]),
        reports.map(() => ["passed", undefined]),
      );
      const checks = reports.map((report) => report.checks.find((c) => c.name === "expectToolCalls")!);
      assert.deepEqual(
        checks.map((c) => c.outcome),
        ["passed", "passed", "passed"],
      );
      assert.deepEqual(
        (checks[1]!.actual as { name: string; args: unknown }[]).map(({ name, args }) => ({ name, args })),
        [
          { name: "check_name", args: { name: "Ada Lovelace" } },
          { name: "save_name", args: { name: "Ada Lovelace" } },
        ],
      );
    });

    test("fails each turn whose calls differ at the turn's file:line, naming the expected call and the calls made", async (t) => {
      const run = await runOf(t, WRONG, entry());
      const reports = await playEach(run);
      assert.deepEqual(
        reports.map((report) => report.outcome),
        ["failed", "failed", "failed", "failed"],
      );
      const labels = run.loaded.scenario.turns.map((turn) => turn.label);
      assert.deepEqual(
        reports.map((report) => report.location),
        labels.map((label) => turnLocation(WRONG, label)),
      );
      const [wrongArgument, notCalled, noneMade, wrongOutput] = reports.map((report) => report.failure);
      assert.equal(
        wrongArgument,
        `turn 1 'expects another name checked': turn 1: expectToolCalls[0] {"name":"check_name","args":{"name":"Grace"}} was not called: ` +
          `check_name (call 1 of the turn) differs: args.name: expected "Grace", found "Ada 2"; ` +
          `the turn called check_name({"name":"Ada 2"}) → ${ended}; response: "Please tell me your name."`,
      );
      assert.match(
        notCalled!,
        /expectToolCalls\[0\] \{"name":"save_email"\} was not called: the turn did not call save_email; the turn called check_name\(\{"name":"Ada Lovelace"\}\) → .*, save_name\(\{"name":"Ada Lovelace"\}\)/,
      );
      assert.match(
        noneMade!,
        /expectToolCalls\[0\] \{"name":"save_email"\} was not called: the turn did not call save_email; the turn called no tool/,
      );
      assert.match(
        wrongOutput!,
        /expectToolCalls\[0\] \{"name":"save_email","output":\{"saved":false\}\} was not called: save_email \(call 1 of the turn\) differs: output.*; the turn called save_email\(\{"email":"ada@example\.com"\}\) → /,
      );
    });
  });
}

test("outputs an answer lists are matched partially: they pass where they agree, and where an answer carries none the call shows as not completed", async (t) => {
  const listed = await playEach(await runOf(t, OUTPUTS, statelessChatEntry(server.url, { toolCalls: POINTERS })));
  assert.deepEqual(
    listed.map((report) => [report.outcome, report.failure]),
    [
      ["passed", undefined],
      ["passed", undefined],
    ],
  );
  const streamed = await playEach(await runOf(t, OUTPUTS, statelessChatEntry(server.url, { stream: true })));
  assert.equal(streamed[0]!.outcome, "failed");
  assert.equal(streamed[0]!.location, turnLocation(OUTPUTS, "takes the name"));
  assert.match(
    streamed[0]!.failure!,
    /expectToolCalls\[0\] \{"name":"check_name","output":\{"valid":true\}\} was not called: check_name \(call 1 of the turn\) differs: output: expected \{"valid":true\}, but the answer shows no output of the call; the turn called check_name\(\{"name":"Ada Lovelace"\}\) → no output in the answer/,
  );
});

test("an answer.toolCalls path that finds no array fails the turn at its file:line, naming the target's key, the pointer and the fix", async (t) => {
  const run = await runOf(t, REPORTED, statelessChatEntry(server.url, { toolCalls: { ...POINTERS, path: "/flow" } }));
  const report = await run.playTurn(0);
  assert.equal(report.outcome, "failed");
  assert.equal(report.location, turnLocation(REPORTED, "refuses a name with digits"));
  assert.match(
    report.failure!,
    new RegExp(
      `^turn 1 'refuses a name with digits': POST ${server.url}/v1/chat/completions answered 200, but ` +
        `targets\\.tools\\.answer\\.toolCalls\\.path \\(the array of the turn's tool calls, \\[\\] when it called none\\): ` +
        `the pointer "/flow" finds \\{"step":"NameStep".*\\}, not an array, in the body .*Fix the pointer in flowcheck\\.config\\.json`,
    ),
  );
});
