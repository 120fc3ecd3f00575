import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import type { CalledTool } from "../../../src/testing/checks/called-tool.ts";
import { foreignFlowChecklist } from "../../../src/testing/checklist/foreign-flow-checklist.ts";
import { ConversationEvents } from "../../../src/testing/report/conversation-events.ts";
import { renderReport } from "../../../src/testing/report/html/render-report.ts";
import { reachOf } from "../../../src/testing/report/flow-coverage.ts";
import { renderResultConversation, renderTranscript } from "../../../src/testing/report/render-transcript.ts";
import type { RunEvent } from "../../../src/testing/report/run-event.ts";
import { reduceRunResults } from "../../../src/testing/report/run-results-reducer.ts";
import { TranscriptDraft } from "../../../src/testing/report/transcript-draft.ts";
import { ScenarioRun } from "../../../src/testing/run/scenario-run.ts";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import { startScenarioTarget, type ScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import type { TargetConversation } from "../../../src/testing/target/target-conversation.ts";
import { basicFlowEntry } from "../../fixtures/flows/index.ts";
import { CONTACT_STEPS } from "../../support/contact-flow.ts";
import { sessionChatEntry, startSessionChatServer } from "../../support/session-chat-server.ts";
import { tempDir } from "../../support/temp-path.ts";

// A target of another kind whose answers report the tools each turn called: the contact flow's
// http server, its conversation reporting the calls a real agent would have made for each input.

const SECRET = "sk-tool-output-secret-123";

const CALLS: Record<string, CalledTool[]> = {
  "R2D2 42": [
    { name: "save_name", args: { name: "R2D2 42" }, output: { error: "a name has no digits" }, status: "failed" },
  ],
  "Ada Lovelace": [
    { name: "save_name", args: { name: "Ada Lovelace" }, output: { saved: true, echo: SECRET }, status: "returned" },
  ],
  nope: [{ name: "save_email", args: { email: "nope" }, output: { error: "not an email" }, status: "failed" }],
  "ada@example.com": [
    { name: "save_email", args: { email: "ada@example.com" }, output: { saved: true }, status: "returned" },
    { name: "notify", args: { channel: "email" }, status: "pending" },
  ],
};

const TURNS = [
  {
    label: "digits refused",
    input: "R2D2 42",
    expectedActiveStep: "NameStep",
    expectToolCalls: [{ name: "save_name", output: { error: "a name has no digits" } }],
  },
  {
    label: "name saved",
    input: "Ada Lovelace",
    expectedActiveStep: "EmailStep",
    expectState: { NameStep: { name: "Ada Lovelace" } },
    expectToolCalls: [{ name: "save_name", args: { name: "Ada Lovelace" }, output: { saved: true } }],
  },
  {
    label: "email refused",
    input: "nope",
    expectedActiveStep: "EmailStep",
    expectToolCalls: [{ name: "save_email", output: { error: "not an email" } }],
  },
  {
    label: "email saved",
    input: "ada@example.com",
    expectedActiveStep: "EmailStep",
    completed: true,
    expectToolCalls: [{ name: "save_email" }, { name: "notify", args: { channel: "email" } }],
  },
];

/** The target, its conversation reporting each turn's calls from `CALLS`, by the turn's input. */
function reporting(target: ScenarioTarget): ScenarioTarget {
  return {
    ...target,
    converse: (options): TargetConversation => {
      const conversation = target.converse(options);
      // Its http entry's plain JSON answers report none: the calls each answer now reports win.
      return {
        toolCallsUnknown: conversation.toolCallsUnknown,
        send: async (turn, session, key) => ({
          ...(await conversation.send(turn, session, key)),
          toolCalls: CALLS[turn.input as string] ?? [],
        }),
        close: () => conversation.close(),
      };
    },
  };
}

/** Plays `turns` of the contact flow against the reporting target; the run's events, results and transcript. */
async function play(t: TestContext, turns: unknown[]) {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const dir = await tempDir("turn-tool-calls-shown");
  t.after(dir.remove);
  const file = join(dir.path, "contact.scenario.json");
  writeFileSync(file, JSON.stringify({ flowName: "ContactFlow", target: "support", turns }, null, 2));
  const outline = { name: "ContactFlow", stepNames: CONTACT_STEPS, servedBy: server.url, kind: "http" as const };
  const loaded = loadScenario(file, [], { root: dir.path, outline });
  const targets = { path: "flowcheck.config.json", targets: { support: sessionChatEntry(server.url) } };
  const env = { FLOW_MODEL: "scripted", JUDGE: "off", FLOW_BASE_URL: undefined };
  const target = reporting(await startScenarioTarget(loaded, { flows: [], env, targets }));
  t.after(() => target.close());
  const events: RunEvent[] = [];
  const draft = new TranscriptDraft();
  const conversation = new ConversationEvents(loaded, undefined, {
    secrets: [SECRET],
    coverage: { outline },
    sink: (event) => {
      events.push(event);
      draft.add(event);
    },
  });
  const run = new ScenarioRun(loaded, target, {}).on(conversation.listener);
  run.start();
  await run.complete();
  run.end();
  return { run, results: reduceRunResults(events), transcript: draft.transcript!, server };
}

test("a target whose answers report tool calls has them matched, and shown in the results with args, output and how they ended, a pending call included", async (t) => {
  const { run, results } = await play(t, TURNS);
  assert.deepEqual(
    run.reports.map((report) => [report.outcome, report.checks.find((c) => c.name === "expectToolCalls")?.outcome]),
    [
      ["passed", "passed"],
      ["passed", "passed"],
      ["passed", "passed"],
      ["passed", "passed"],
    ],
  );
  const [conversation] = results.conversations;
  assert.deepEqual(conversation!.turns[3]!.toolCalls, CALLS["ada@example.com"]);
  // A secret a tool echoed reaches no result.
  assert.deepEqual(conversation!.turns[1]!.toolCalls![0]!.output, { saved: true, echo: "[redacted]" });
});

test("each turn's request is shown as sent: method, whole URL, body, credentials redacted", async (t) => {
  const { results, server } = await play(t, TURNS.slice(0, 1));
  const request = results.conversations[0]!.turns[0]!.request!;
  assert.equal(request.method, "POST");
  assert.equal(request.url, `${server.url}/chat`);
  assert.deepEqual(request.body, { session: null, message: "R2D2 42" });
  assert.ok(!JSON.stringify(request.headers).includes("fixture-token"), JSON.stringify(request.headers));
});

test("the transcript and the report show each turn's request and its tool calls, a pending one as not completed", async (t) => {
  const failing = [...TURNS.slice(0, 3), { ...TURNS[3], expectToolCalls: [{ name: "notify", output: "sent" }] }];
  const { results, transcript, server } = await play(t, failing);
  const text = renderTranscript(transcript);
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.startsWith("── 4. email saved ✗  200"));
  assert.notEqual(at, -1, text);
  const turn = lines.slice(at + 1, at + 9).filter((line) => !line.startsWith("   key "));
  assert.deepEqual(turn, [
    "   user       ada@example.com",
    `   sent       POST ${server.url}/chat`,
    '              {"session":"session-1","message":"ada@example.com"}',
    "   headers    content-type: application/json · accept: application/json · authorization: [redacted]",
    "   assistant  Thanks, I have ada@example.com. We are done.",
    '   tool       save_email({"email":"ada@example.com"}) → {"saved":true}',
    '   tool       notify({"channel":"email"}) → no output in the answer',
  ]);
  assert.match(
    text,
    /✗ expectation expectToolCalls: turn 4: expectToolCalls\[0\] .* notify \(call 2 of the turn\) differs: output: expected "sent", but the answer shows no output of the call/,
  );
  assert.equal(
    renderResultConversation(results.conversations[0]!).includes(`   sent       POST ${server.url}/chat`),
    true,
  );

  const page = renderReport(results);
  assert.match(
    page,
    /<details class="sent" open><summary>sent <code>POST http:\/\/127\.0\.0\.1:\d+\/chat<\/code><\/summary>/,
  );
  assert.match(
    page,
    /<code>notify\(\{&quot;channel&quot;:&quot;email&quot;\}\)<\/code> <span class="chip miss">not completed: no output in the answer<\/span>/,
  );
  assert.match(
    page,
    /<code>save_name\(.*?<\/code> <span class="chip fail">failed<\/span><pre>→ \{\n {2}&quot;error&quot;: &quot;a name has no digits&quot;\n\}<\/pre>/s,
  );
});

test("coverage counts the tools the answers reported, and the checklist proves the refusal and the save by them", async (t) => {
  const { results } = await play(t, TURNS);
  const coverage = results.coverage!["ContactFlow"]!;
  assert.deepEqual(coverage.tools, {
    notify: ["pending"],
    save_email: ["failed", "returned"],
    save_name: ["failed", "returned"],
  });
  assert.equal(reachOf(coverage).reached, "2/2 steps · 3/3 tools");
  const points = Object.fromEntries(
    foreignFlowChecklist("ContactFlow", results).points.map((point) => [point.id, `${point.status}: ${point.detail}`]),
  );
  assert.equal(points["4"], "proved: save_email failed and the step stayed: contact turn 3 'email refused'");
  assert.equal(
    points["5"],
    "proved: save_name on contact turn 2 'name saved', which moved NameStep → EmailStep and stored state",
  );
  assert.equal(
    points["tools"],
    "proved: 3 tools called: save_name (failed, returned); save_email (failed, returned); notify (pending)",
  );
});

test("our engine's turns show the calls its stored log holds, each with what the tool returned and its outcome, and the request to POST /ai/chat", async (t) => {
  const dir = await tempDir("turn-tool-calls-engine");
  t.after(dir.remove);
  const root = join(import.meta.dirname, "..", "..", "fixtures", "turn-expectations");
  const loaded = loadScenario(join(root, "basic-flow-tool-calls.scenario.json"), [basicFlowEntry.flow], { root });
  const env = { FLOW_MODEL: "scripted", JUDGE: "off", FLOW_BASE_URL: undefined };
  const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], env, scratchDir: dir.path });
  t.after(() => target.close());
  const events: RunEvent[] = [];
  const draft = new TranscriptDraft();
  const conversation = new ConversationEvents(loaded, undefined, {
    coverage: { flow: basicFlowEntry.flow },
    sink: (event) => {
      events.push(event);
      draft.add(event);
    },
  });
  const run = new ScenarioRun(loaded, target, {}).on(conversation.listener);
  run.start();
  await run.complete();
  run.end();
  const turns = reduceRunResults(events).conversations[0]!.turns;
  assert.deepEqual(turns[2]!.toolCalls, [
    {
      name: "get_weather",
      args: { cityName: "LA" },
      output: "LA is 72°F. Ask for the second city.",
      status: "returned",
      result: "stay",
    },
    {
      name: "get_weather",
      args: { cityName: "NYC" },
      output: "NYC is 64°F. Both cities are saved: LA 72°F, NYC 64°F.",
      status: "returned",
      result: "advance",
    },
  ]);
  assert.equal(turns[0]!.request!.url, `${target.description.baseUrl.replace(/\/$/, "")}/ai/chat`);
  assert.deepEqual(turns[0]!.request!.body, { flow: "BasicFlow", message: "John Doe" });
  assert.deepEqual(draft.transcript!.turns[2]!.toolCalls, turns[2]!.toolCalls);
  assert.match(
    renderResultConversation(reduceRunResults(events).conversations[0]!),
    /^ {3}tool {7}get_weather\(\{"cityName":"NYC"\}\) → advance "NYC is 64°F\. Both cities are saved: LA 72°F, NYC 64°F\."$/m,
  );
});

test("a turn the target refuses with a 4xx shows what was sent, its headers' credentials redacted, and what came back", async (t) => {
  const turns = [
    { label: "name", input: "Ada Lovelace", expectedActiveStep: "EmailStep" },
    { label: "email", input: "ada@example.com", expectedActiveStep: "EmailStep", completed: true },
    { label: "after the end", input: "hello again", expectedActiveStep: "EmailStep" },
  ];
  const { results, transcript, server } = await play(t, turns);
  const refused = results.conversations[0]!.turns[2]!;
  assert.equal(refused.outcome, "failed");
  assert.deepEqual(refused.request, {
    method: "POST",
    url: `${server.url}/chat`,
    path: "/chat",
    headers: { "content-type": "application/json", accept: "application/json", authorization: "[redacted]" },
    body: { session: "session-1", message: "hello again" },
  });
  assert.deepEqual([refused.response!.status, refused.response!.body], [409, { error: "session session-1 is done" }]);
  const lines = renderTranscript(transcript).split("\n");
  const at = lines.findIndex((line) => line.startsWith("── 3. after the end ✗  409"));
  assert.deepEqual(lines.slice(at + 1, at + 5), [
    "   user       hello again",
    `   sent       POST ${server.url}/chat`,
    '              {"session":"session-1","message":"hello again"}',
    "   headers    content-type: application/json · accept: application/json · authorization: [redacted]",
  ]);
});
