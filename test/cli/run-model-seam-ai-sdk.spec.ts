import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, test } from "node:test";
import { pathToFileURL } from "node:url";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { AnsweredItems } from "../../src/testing/seam/answered-items.ts";
import { readChatCompletions } from "../../src/testing/seam/read-chat-completions.ts";
import { readResponses } from "../../src/testing/seam/read-responses.ts";
import bookingDesk from "../fixtures/seam-scripts/booking-desk.ts";
import { AI_SDK_PROJECT, requireAiSdkFixture } from "../support/ai-sdk-server.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import {
  chatCompletion,
  responsesAnswer,
  startStandInProvider,
  type StandInProvider,
} from "../support/stand-in-provider.ts";
import { tempDir } from "../support/temp-path.ts";

// The AI SDK fixture's booking chat on @ai-sdk/openai, started by flowcheck from its target's
// `start`, its model served by flowcheck at the seam: scripted with no key and no network, recorded
// against a provider stand-in and replayed without it, its model faults, an unmatched prompt, a
// start that fails, and eight conversations at once against one started app. The app runs with a
// preload that refuses every connection off this machine and logs it.

const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");
const SCRIPTS = join(FIXTURES, "seam-scripts", "booking-desk.ts");
const BOOKING = JSON.parse(readFileSync(join(FIXTURES, "seam-scenarios", "booking.scenario.json"), "utf8")) as {
  turns: Record<string, unknown>[];
};
const LOOPBACK_ONLY = join(FIXTURES, "mastra-project", "src", "loopback-only.ts");
const RUN_KEY = "sk-run-key-seam-123456";

let project: { path: string; remove(): void } | undefined;
let provider: StandInProvider | undefined;

afterEach(async () => {
  project?.remove();
  project = undefined;
  await provider?.close();
  provider = undefined;
});

/** The booking chat as target `desk`, on the model API `api` (`BOOKING_MODEL`), its model served at the seam. */
function deskTarget(api: string, timeoutMs = 20_000): object {
  return {
    kind: "ai-sdk",
    baseUrl: "http://127.0.0.1:{{port}}",
    answer: { step: "/metadata/step" },
    flows: { booking: { steps: ["search", "guest", "done"] } },
    timeoutMs,
    start: {
      command: `"${process.execPath}" --import ${pathToFileURL(LOOPBACK_ONLY).href} server.mjs`,
      cwd: AI_SDK_PROJECT,
      env: { PORT: "{{port}}", BOOKING_MODEL: api },
      ready: "http://127.0.0.1:{{port}}/api/chats/none",
      timeoutMs: 30_000,
    },
    model: { scripts: SCRIPTS },
  };
}

/** A project with `desk` as its target and the scenarios given, by file name, in `chats/`. */
async function deskProject(api: string, scenarios: Record<string, object>, timeoutMs?: number): Promise<string> {
  requireAiSdkFixture();
  project = await tempDir("run-model-seam-ai-sdk");
  writeFileSync(
    join(project.path, "flowcheck.config.json"),
    JSON.stringify({ targets: { desk: deskTarget(api, timeoutMs) } }),
  );
  mkdirSync(join(project.path, "chats"));
  for (const [name, scenario] of Object.entries(scenarios))
    writeFileSync(join(project.path, "chats", `${name}.scenario.json`), JSON.stringify(scenario, null, 2));
  return project.path;
}

function booking(turns = BOOKING.turns): object {
  return { flowName: "booking", description: "A room booked at the seam.", turns };
}

function play(path: string, env: Record<string, string> = {}): Promise<ChildRun> {
  return runFlowcheck(["test", "chats"], { FLOW_TARGET: "desk", ...env }, undefined, path);
}

function resultsOf(path: string): RunResults {
  return JSON.parse(readFileSync(join(path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

function appLog(path: string): string {
  return readFileSync(join(path, "test", ".tmp", "desk.log"), "utf8");
}

function outcomesOf(results: RunResults): [string, string][] {
  return results.conversations.flatMap((conversation) => conversation.turns.map((turn) => [turn.label, turn.outcome]));
}

/** The stand-in answers as the booking scripts would, in the API it was asked. */
function answerAsTheScript(stand: StandInProvider): void {
  stand.answer = ({ path, body }) => {
    const chat = path === "/v1/chat/completions";
    const call = chat ? readChatCompletions(body) : readResponses(body, new AnsweredItems());
    const context = { target: "desk", flow: "booking", model: call.model, api: call.api };
    const reply = bookingDesk({ ...call.request, context });
    assert.ok(reply, `the stand-in has no answer for ${JSON.stringify(call.request.latest)}`);
    return { status: 200, body: chat ? chatCompletion(reply) : responsesAnswer(reply) };
  };
}

for (const api of ["responses", "chat"]) {
  test(`the booking chat on @ai-sdk/openai's ${api} model passes scripted at the seam, each turn's tool calls read there, with no key and no network`, async () => {
    const path = await deskProject(api, { booking: booking() });
    const run = await play(path);
    assert.equal(run.code, 0, run.stdout + run.stderr + appLog(path));
    const results = resultsOf(path);
    assert.deepEqual(outcomesOf(results), [
      ["asks where", "passed"],
      ["finds a room", "passed"],
      ["cannot book for nobody", "passed"],
      ["books for Ada", "passed"],
    ]);
    const calls = results.conversations[0]!.turns.map((turn) => turn.toolCalls?.map((call) => [call.id, call.status]));
    // Ids unique in the conversation, though the script names each turn's call call_1_<tool>.
    assert.deepEqual(calls, [
      [],
      [["call_2_findRoom", "returned"]],
      [["call_4_bookRoom", "failed"]],
      [["call_6_bookRoom", "returned"]],
    ]);
    assert.doesNotMatch(appLog(path), /outbound connection refused/);
  });
}

test("recorded against the provider with the run's key, the booking replays with the provider stopped and no request; an edited answer fails replay at its turn, naming the difference", async () => {
  provider = await startStandInProvider();
  answerAsTheScript(provider);
  const path = await deskProject("responses", { booking: booking() });
  const live = { OPENAI_API_KEY: RUN_KEY, OPENAI_BASE_URL: provider.baseURL };
  const recorded = await play(path, { ...live, FLOW_MODEL: "record" });
  assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr + appLog(path));
  const requests = provider.requests.length;
  assert.ok(requests >= 7, `the provider answered ${requests} calls`);
  assert.ok(provider.requests.every((request) => request.authorization === `Bearer ${RUN_KEY}`));
  assert.doesNotMatch(appLog(path), new RegExp(RUN_KEY));
  const cassette = join(path, "chats", "booking.cassette.json");
  const tape = JSON.parse(readFileSync(cassette, "utf8")) as {
    cassette: number;
    calls: { kind: string; where: unknown; turn: number; reply: { toolCalls: { arguments: string }[] } }[];
  };
  assert.equal(tape.cassette, 2);
  assert.equal(tape.calls.length, requests);
  assert.ok(tape.calls.every((call) => call.kind === "model"));
  assert.deepEqual(tape.calls[0]!.where, { target: "desk", api: "responses" });
  await provider.close();

  const replayed = await play(path, { FLOW_MODEL: "replay" });
  assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
  assert.equal(provider.requests.length, requests, "replay asks the provider nothing");

  const found = tape.calls.find((call) => call.turn === 2 && call.reply.toolCalls.length > 0)!;
  found.reply.toolCalls[0]!.arguments = JSON.stringify({ city: "Lisbon", nights: 3 });
  writeFileSync(cassette, JSON.stringify(tape));
  const edited = await play(path, { FLOW_MODEL: "replay" });
  assert.equal(edited.code, 1, edited.stdout + edited.stderr);
  const turns = outcomesOf(resultsOf(path));
  assert.deepEqual(turns[1], ["finds a room", "failed"]);
  const failure = resultsOf(path).conversations[0]!.turns[1]!.failure ?? "";
  assert.match(
    failure,
    /cassette_mismatch: Replay of chats\/booking\.cassette\.json: call 3 \(turn 2 'finds a room', target desk, Responses API\) differs from the recording in messages\[3\]\.toolCalls\[0\]\.arguments/,
  );
  assert.match(failure, /now: +"\{\\"city\\":\\"Lisbon\\",\\"nights\\":3\}"/);
});

test("the booking chat does as its scenarios say under each model fault: a rate limit retried, a truncated answer, a malformed tool call refused, and an apology after an error or a timeout outlasts the SDK's retries", async () => {
  const path = await deskProject(
    "responses",
    {
      survives: booking([
        {
          label: "rate limited, then served",
          input: "Hello",
          modelFault: { call: 1, kind: "rate-limit" },
          expectedActiveStep: "search",
          responseMustInclude: ["Which city"],
        },
        {
          label: "cut off",
          input: "Hello again",
          modelFault: { call: 1, kind: "truncated" },
          expectedActiveStep: "search",
          responseMustInclude: ["I can book you a hotel"],
          responseMustNotInclude: ["how many nights"],
        },
        {
          label: "garbled call",
          input: "A room in Lisbon for 2 nights",
          modelFault: { call: 1, kind: "malformed-tool-call" },
          expectedActiveStep: "search",
          responseMustInclude: ["I could not do that", "JSON parsing failed"],
          expectToolCalls: [{ name: "findRoom" }],
        },
      ]),
      error: booking([{ label: "provider fails", input: "Hello", failModelCall: 1, expectedActiveStep: "search" }]),
      timeout: booking([
        {
          label: "held too long",
          input: "Hello",
          modelFault: { call: 1, kind: "timeout", holdMs: 200 },
          expectedActiveStep: "search",
          responseMustInclude: ["cannot answer just now"],
        },
      ]),
    },
    30_000,
  );
  const run = await play(path);
  const results = resultsOf(path);
  const shown = JSON.stringify(results.conversations, null, 2) + run.stdout + appLog(path);
  assert.equal(run.code, 0, shown);
  const played = Object.fromEntries(
    results.conversations.map((conversation) => [conversation.file, conversation.turns]),
  );
  assert.deepEqual(
    played["chats/survives.scenario.json"]!.map((turn) => [turn.label, turn.outcome]),
    [
      ["rate limited, then served", "passed"],
      ["cut off", "passed"],
      ["garbled call", "passed"],
    ],
    shown,
  );
  const [garbled] = played["chats/survives.scenario.json"]![2]!.toolCalls!;
  assert.deepEqual([garbled!.args, garbled!.status], ['{"city":"Lisbon","nights":2', "failed"]);
  // The SDK retries a 500 and a reset connection twice, each retry faulted as the call was, then
  // gives up: the chat apologises in words, on the step it was on.
  for (const file of ["chats/error.scenario.json", "chats/timeout.scenario.json"])
    assert.equal(played[file]![0]!.outcome, "passed", shown);
  assert.match(appLog(path), /the model failed: /);
});

test("a prompt no script answers fails its turn naming the system prompt and the message", async () => {
  const path = await deskProject("chat", {
    weather: booking([
      { label: "asks the weather", input: "What is the weather in Lisbon?", expectedActiveStep: "search" },
    ]),
  });
  const run = await play(path);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const failure = resultsOf(path).conversations[0]?.turns[0]?.failure ?? run.stdout + run.stderr;
  assert.match(failure, /script_unmatched/);
  assert.match(failure, /System prompt: "You book hotel rooms\."/);
  assert.match(failure, /What is the weather in Lisbon\?/);
  assert.match(failure, /booking-desk\.ts/);
});

test("an app that exits at start stops the run with exit 2 before anything plays, naming the target and quoting its log", async () => {
  const path = await deskProject("sideways", { booking: booking() });
  const run = await play(path);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr + run.stdout, /target_start_failed: .*desk/);
  assert.match(run.stderr + run.stdout, /BOOKING_MODEL/);
  assert.equal(existsSync(join(path, "test", ".tmp", "run-results.json")), false);
});

test("eight conversations at once against one started app each pass, and each cassette holds its own calls only", async () => {
  provider = await startStandInProvider();
  answerAsTheScript(provider);
  const nights = [1, 2, 3, 4, 5, 6, 7, 8];
  const scenarios = Object.fromEntries(
    nights.map((n) => [
      `booking-${n}`,
      booking([
        {
          label: "finds a room",
          input: `A room in Lisbon for ${n} nights`,
          expectedActiveStep: "guest",
          expectToolCalls: [{ name: "findRoom", args: { nights: n }, output: { price: 120 * n } }],
        },
        {
          label: "books",
          input: `Book it for Guest${n}`,
          expectedActiveStep: "done",
          responseMustInclude: [`SOL-GUEST${n}-1`],
        },
      ]),
    ]),
  );
  const path = await deskProject("responses", scenarios);
  const run = await play(path, {
    FLOW_MODEL: "record",
    FLOW_CONCURRENCY: "8",
    OPENAI_API_KEY: RUN_KEY,
    OPENAI_BASE_URL: provider.baseURL,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr + appLog(path));
  const results = resultsOf(path);
  assert.equal(results.conversations.length, 8);
  assert.ok(results.conversations.every((conversation) => conversation.outcome === "passed"));
  assert.equal(readdirSync(join(path, "test", ".tmp")).filter((file) => file.endsWith(".log")).length, 1);
  for (const n of nights) {
    const tape = readFileSync(join(path, "chats", `booking-${n}.cassette.json`), "utf8");
    assert.match(tape, new RegExp(`for ${n} nights`));
    for (const other of nights.filter((each) => each !== n)) assert.doesNotMatch(tape, new RegExp(`Guest${other}\\b`));
  }
});

test("a scenario whose target's model is served is recorded once: --repeat with FLOW_MODEL=record is refused for it, as for our engine's flows", async () => {
  const path = await deskProject("responses", { booking: booking() });
  const run = await runFlowcheck(
    ["test", "chats", "--repeat", "2"],
    { FLOW_TARGET: "desk", FLOW_MODEL: "record", OPENAI_API_KEY: RUN_KEY, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    undefined,
    path,
  );
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stdout + run.stderr,
    /booking records its cassette \(FLOW_MODEL=record\), and repeat: 2 would write it 2 times/,
  );
});
