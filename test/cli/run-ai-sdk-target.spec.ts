import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { startAiSdkServer, type AiSdkServer } from "../support/ai-sdk-server.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { listenOnLoopback, type LoopbackServer } from "../support/loopback-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A project with no spec: flowcheck.config.json names the AI SDK fixture's booking chat, a route
// written as the SDK's chatbot guides write it on the SDK's mock model, as "ai-sdk" targets (the
// whole chat sent, as useChat sends it, and only the last message, as the persistence guide's
// route takes it), and flowcheck test plays the scenario files against it. A route of broken
// answers stands for the streams the SDK's client refuses.

const SCENARIOS = resolve(import.meta.dirname, "..", "fixtures", "ai-sdk-scenarios");

const sse = (chunks: object[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("");

/** Each broken route's answer, by path. */
const BROKEN: Record<string, string> = {
  "/cut": sse([{ type: "start" }, { type: "start-step" }, { type: "text-start", id: "t" }]),
  "/unknown-call": `${sse([
    { type: "start" },
    { type: "tool-input-available", toolCallId: "call-1", toolName: "findRoom", input: { city: "Lisbon" } },
    { type: "tool-output-available", toolCallId: "call-2", output: { hotel: "Hotel Sol" } },
    { type: "finish" },
  ])}data: [DONE]\n\n`,
  "/client-tool": `${sse([
    { type: "start", messageMetadata: { step: "guest" } },
    { type: "start-step" },
    {
      type: "tool-input-available",
      toolCallId: "call-1",
      toolName: "askForConfirmation",
      input: { message: "Book Hotel Sol?" },
    },
    { type: "finish-step" },
    { type: "finish", finishReason: "tool-calls" },
  ])}data: [DONE]\n\n`,
};

describe("flowcheck test against an AI SDK chat route", () => {
  let app: AiSdkServer;
  let broken: LoopbackServer;
  let dir: { path: string; remove(): void };

  before(async () => {
    [app, broken] = await Promise.all([
      startAiSdkServer(),
      listenOnLoopback((request, response: ServerResponse) => {
        request.resume();
        response.writeHead(200, { "content-type": "text/event-stream" }).end(BROKEN[request.url ?? ""] ?? "");
      }),
    ]);
    dir = await tempDir("run-ai-sdk-target");
    cpSync(SCENARIOS, join(dir.path, "conversations"), { recursive: true });
    const answer = { step: "/metadata/step" };
    const flows = { booking: { steps: ["search", "guest", "done"] } };
    const route = (path: string) => ({ kind: "ai-sdk", baseUrl: broken.url, path, answer });
    const targets = {
      booking: { kind: "ai-sdk", baseUrl: app.baseUrl, answer, flows },
      "booking-last": {
        kind: "ai-sdk",
        baseUrl: app.baseUrl,
        path: "/api/chat/last",
        send: "last",
        answer,
        state: { path: "/api/chats/{{session}}", step: "/step", state: "/booking" },
        flows,
      },
      "booking-uuid": { kind: "ai-sdk", baseUrl: app.baseUrl, path: "/api/chat/uuid", send: "last", answer },
      cut: route("/cut"),
      "unknown-call": route("/unknown-call"),
      "client-tool": route("/client-tool"),
    };
    writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  });

  after(async () => {
    dir?.remove();
    await Promise.all([app?.close(), broken?.close()]);
  });

  function runSpecs(target: string, folder: string): Promise<ChildRun> {
    return runFlowcheck(
      ["test", `conversations/${folder}`, "--test-reporter=spec"],
      { FLOW_TARGET: target },
      undefined,
      dir.path,
    );
  }

  function resultsOf(): RunResults {
    return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
  }

  /** `conversations/<file>:<line>` of the turn labelled `label`, as a failure names it, made a pattern. */
  function at(file: string, label: string): string {
    const lines = readFileSync(join(SCENARIOS, file), "utf8").split("\n");
    const line = lines.findIndex((text) => text.includes(`"label": "${label}"`)) + 1;
    assert.ok(line > 0, `${file} has no turn labelled ${label}`);
    return `conversations/${file}:${line}: turn \\d+ '${label}': `.replaceAll(".", "\\.");
  }

  test("the booking chat passes turn by turn, each turn's tool calls matched with their arguments and outputs, sent as useChat sends it", async () => {
    const run = await runSpecs("booking", "passing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output + app.output());
    const [conversation] = resultsOf().conversations;
    assert.deepEqual(
      conversation!.turns.map((turn) => [turn.label, turn.outcome]),
      [
        ["asks where", "passed"],
        ["finds a room", "passed"],
        ["cannot book for nobody", "passed"],
        ["books for Ada", "passed"],
      ],
    );
    // What useChat sends: one chat id, the whole chat (each answer as the SDK's client rebuilt it, its tool calls in it).
    const bodies = conversation!.turns.map((turn) => turn.request?.body as Record<string, any>);
    const chat = bodies[0]!["id"];
    assert.match(chat, /^[0-9A-Za-z]{16}$/);
    assert.ok(bodies.every((body) => body["id"] === chat && body["trigger"] === "submit-message"));
    const last = bodies[3]!["messages"] as {
      id: string;
      role: string;
      metadata?: unknown;
      parts: Record<string, unknown>[];
    }[];
    assert.deepEqual(
      last.map((message) => message.role),
      ["user", "assistant", "user", "assistant", "user", "assistant", "user"],
    );
    assert.deepEqual(last[0], { parts: [{ type: "text", text: "Hello" }], id: last[0]!.id, role: "user" });
    assert.ok(last.every((message) => /^[0-9A-Za-z]{16}$/.test(message.id)));
    const found = last[3]!.parts.find((part) => part["type"] === "tool-findRoom");
    assert.deepEqual(found, {
      type: "tool-findRoom",
      toolCallId: "call-1",
      state: "output-available",
      input: { city: "Lisbon", nights: 2 },
      output: { hotel: "Hotel Sol", city: "Lisbon", nights: 2, price: 240 },
    });
    assert.deepEqual(last[3]!.metadata, { chatId: chat, step: "guest" });
  });

  test("the route that keeps the chat itself passes the same scenario sent only the last message, its stored step read by the chat id", async () => {
    const run = await runSpecs("booking-last", "passing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output + app.output());
    const [conversation] = resultsOf().conversations;
    assert.ok(
      conversation!.turns.every((turn) => turn.outcome === "passed"),
      output,
    );
    assert.deepEqual(
      conversation!.turns.map((turn) => turn.stored?.step),
      ["search", "guest", "guest", "done"],
    );
    const body = conversation!.turns[3]!.request?.body as Record<string, any>;
    assert.deepEqual(Object.keys(body), ["id", "message"]);
    assert.deepEqual(body["message"].parts, [{ type: "text", text: "Book it for Ada" }]);
  });

  test("a wrong tool argument, a tool the turn did not call and a wrong step each fail at their turn's line, naming the call", async () => {
    const run = await runSpecs("booking", "failing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const failures = [
      [
        "failing/wrong-argument.scenario.json",
        "finds a room for three nights",
        'turn 1: expectToolCalls\\[0\\] \\{"name":"findRoom","args":\\{"city":"Lisbon","nights":3\\}\\} was not called: ' +
          "findRoom \\(call 1 of the turn\\) differs: args\\.nights: expected 3, found 2; " +
          'the turn called findRoom\\(\\{"city":"Lisbon","nights":2\\}\\) → \\{"hotel":"Hotel Sol",',
      ],
      [
        "failing/uncalled-tool.scenario.json",
        "books without saying for whom",
        'turn 2: expectToolCalls\\[0\\] \\{"name":"bookRoom"\\} was not called: the turn did not call bookRoom; the turn called no tool',
      ],
      [
        "failing/wrong-step.scenario.json",
        "finds a room",
        "answer currentStep: the answer says it is on guest \\(runStatus undefined\\); the turn expects done",
      ],
    ] as const;
    for (const [file, label, why] of failures) assert.match(output, new RegExp(`${at(file, label)}${why}`));
    assert.match(output, /^3 conversations: 0 passed, 3 failed/m);
  });

  test("a chat id the route refuses, a stream cut mid-answer, an output for a call never named and a client tool left waiting each fail at their turn, naming the target and what to do", async () => {
    const run = await runSpecs("booking", "bad-answers");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const failures = [
      [
        "bad-answers/refused-chat-id.scenario.json",
        "finds a room",
        `target booking-uuid \\(ai-sdk\\): POST ${app.baseUrl}/api/chat/uuid answered 400 Bad Request: ` +
          '"\\{\\\\"error\\\\":\\\\"the chat id [0-9A-Za-z]{16} is not a UUID\\\\"\\}"\\. ' +
          'It was sent \\{"id":"[0-9A-Za-z]{16}","message":\\{"parts":\\[\\{"type":"text","text":"A room in Lisbon for 2 nights"\\}\\],' +
          '"id":"[0-9A-Za-z]{16}","role":"user"\\}\\}\\. The route refused it: see its log\\. The chat id is made as useChat ' +
          "makes it \\(16 letters and digits\\), so a route that wants ids of its own making refuses it\\.",
      ],
      [
        "bad-answers/cut-stream.scenario.json",
        "finds a room",
        `target cut \\(ai-sdk\\): POST ${broken.url}/cut answered 200, but the ai-sdk-ui stream ends without its terminator "data: \\[DONE\\]" after 3 events`,
      ],
      [
        "bad-answers/unknown-call.scenario.json",
        "finds a room",
        `target unknown-call \\(ai-sdk\\): POST ${broken.url}/unknown-call answered 200, but part 3 of the ai-sdk-ui stream is a ` +
          'tool-output-available for the tool call "call-2", which no tool-input-start or tool-input-available named before; ' +
          "the AI SDK's client refuses it\\. The route must send a call's input before its output",
      ],
      [
        "bad-answers/client-tool.scenario.json",
        "confirms",
        "target client-tool \\(ai-sdk\\): the answer before left the tool call askForConfirmation \\(call-1\\) input-available, " +
          "waiting on the client, .*Nothing was sent\\. End the scenario at the turn before, or give the tool an execute function on the server\\.",
      ],
    ] as const;
    for (const [file, label, why] of failures) assert.match(output, new RegExp(`${at(file, label)}${why}`));
    const clientTool = resultsOf().conversations.find(
      (c) => c.file === "conversations/bad-answers/client-tool.scenario.json",
    );
    assert.deepEqual(
      clientTool?.turns.map((turn) => turn.outcome),
      ["passed", "failed"],
    );
  });
});
