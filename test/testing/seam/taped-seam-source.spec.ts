import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { Cassette } from "../../../src/testing/cassette/cassette.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import { ProviderGate } from "../../../src/testing/limits/provider-gate.ts";
import { RunArbiter } from "../../../src/testing/limits/run-arbiter.ts";
import { runLimits } from "../../../src/testing/limits/run-limits.ts";
import { liveSeamSource } from "../../../src/testing/seam/live-seam-source.ts";
import type { SeamSource } from "../../../src/testing/seam/seam-call.ts";
import type { SeamMessage } from "../../../src/testing/seam/seam-request.ts";
import { tapedSeamSource } from "../../../src/testing/seam/taped-seam-source.ts";
import { seamCallOf } from "../../support/seam-call-of.ts";
import { chatCompletion, responsesAnswer, startStandInProvider } from "../../support/stand-in-provider.ts";
import { tempDir } from "../../support/temp-path.ts";

// A started app's model calls on its scenario's cassette: recorded against a provider (a local
// stand-in), then replayed with the provider stopped, and a tape edited by hand fails replay at the
// turn it no longer matches.

const KEY = "sk-run-key-0123456789";
const WEATHER = { id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' };
const ASKED: SeamMessage = { role: "assistant", content: "", toolCalls: [WEATHER] };
const RESULT: SeamMessage = { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"sky":"sunny"}' };

/** The conversation: turn 1 over Chat Completions asks for the weather tool, gets its result back and answers; turn 2 over the Responses API. */
const CALLS = [
  { turn: 1, label: "asks the weather", call: seamCallOf("chat", "Weather in Paris?") },
  {
    turn: 1,
    label: "asks the weather",
    call: seamCallOf("chat", [{ role: "user", content: "Weather in Paris?" }, ASKED, RESULT]),
  },
  { turn: 2, label: "thanks", call: seamCallOf("responses", "Thanks!") },
];

let dir: { path: string; remove: () => void };
let recorded: CassetteFile;
let answers: Awaited<ReturnType<SeamSource>>[];
let requestsWhileRecording: number;

const loaded = () => ({
  file: join(dir.path, "desk.scenario.json"),
  name: "desk",
  scenario: { flowName: "Desk", turns: [] },
});

/** Plays CALLS through `source`, each under its turn, with what they were answered. */
async function play(cassette: Cassette, source: SeamSource) {
  const got: Awaited<ReturnType<SeamSource>>[] = [];
  for (const { turn, label, call } of CALLS) {
    cassette.beginTurn(turn, label);
    got.push(await source(call.request, call.call));
  }
  return got;
}

const replayer = () => Cassette.open(loaded(), "replay", { modelName: "gpt-4o", ci: false });

before(async () => {
  dir = await tempDir("seam-cassette");
  const provider = await startStandInProvider();
  provider.answer = (sent) => {
    if (sent.path === "/v1/responses")
      return { status: 200, body: responsesAnswer({ content: "You're welcome.", toolCalls: [] }) };
    const asking = (sent.body["messages"] as unknown[]).length === 2;
    const reply = asking ? { content: "", toolCalls: [WEATHER] } : { content: "Sunny in Paris.", toolCalls: [] };
    return { status: 200, body: chatCompletion(reply) };
  };
  try {
    const gate = new ProviderGate(loadConfig({}), "Desk: desk", runLimits(new RunArbiter(), false));
    const live = liveSeamSource({
      baseUrl: provider.baseURL,
      apiKey: KEY,
      fetch: gate.fetchFor("model"),
      timeoutMs: 5000,
    });
    const cassette = Cassette.open(loaded(), "record", { modelName: "gpt-4o", ci: false });
    answers = await play(cassette, tapedSeamSource(cassette, "desk", live));
    cassette.save();
    requestsWhileRecording = provider.requests.length;
    assert.ok(
      provider.requests.every((sent) => sent.authorization === `Bearer ${KEY}`),
      "the key on every request",
    );
  } finally {
    await provider.close();
  }
  recorded = JSON.parse(readFileSync(join(dir.path, "desk.cassette.json"), "utf8")) as CassetteFile;
});

after(() => dir.remove());

test("recording tapes each seam call under its turn, with its target and API, the request as scripts read it, and the reply with its usage", () => {
  assert.equal(requestsWhileRecording, 3);
  assert.equal(recorded.cassette, 2);
  assert.deepEqual(
    recorded.calls.map((call) => [call.position, call.turn, call.label, call.kind, call.where]),
    [
      [1, 1, "asks the weather", "model", { target: "desk", api: "chat" }],
      [2, 1, "asks the weather", "model", { target: "desk", api: "chat" }],
      [3, 2, "thanks", "model", { target: "desk", api: "responses" }],
    ],
  );
  const { request } = CALLS[1]!.call;
  assert.deepEqual(recorded.calls[1]!.request, {
    model: "gpt-4o-mini",
    system: request.system,
    tools: request.tools,
    messages: request.messages,
  });
  assert.deepEqual(recorded.calls[0]!.reply, { content: "", toolCalls: [WEATHER], usage: { input: 12, output: 5 } });
  assert.deepEqual(recorded.calls[1]!.reply, {
    content: "Sunny in Paris.",
    toolCalls: [],
    usage: { input: 12, output: 5 },
  });
  assert.deepEqual(recorded.calls[2]!.reply, {
    content: "You're welcome.",
    toolCalls: [],
    usage: { input: 30, output: 7 },
  });
});

test("replay with the recording's provider stopped answers every call from the tape as recorded, usage and all, asking a live source nothing", async () => {
  const watching = await startStandInProvider();
  try {
    const gate = new ProviderGate(loadConfig({}), "Desk: desk", runLimits(new RunArbiter(), false));
    const live = liveSeamSource({
      baseUrl: watching.baseURL,
      apiKey: KEY,
      fetch: gate.fetchFor("model"),
      timeoutMs: 5000,
    });
    const cassette = replayer();
    assert.deepEqual(await play(cassette, tapedSeamSource(cassette, "desk", live)), answers);
    assert.equal(cassette.leftovers(), undefined);
    assert.equal(watching.requests.length, 0);
  } finally {
    await watching.close();
  }
});

test("an answer edited on the tape is what replay answers", async () => {
  const edited = structuredClone(recorded);
  (edited.calls[2]!.reply as { content: string }).content = "Anytime.";
  writeFileSync(join(dir.path, "desk.cassette.json"), JSON.stringify(edited));
  const cassette = replayer();
  const got = await play(cassette, tapedSeamSource(cassette, "desk"));
  assert.deepEqual(got[2], { reply: { content: "Anytime.", toolCalls: [] }, usage: { input: 30, output: 7 } });
});

test("a request that differs from the tape fails replay with cassette_mismatch naming the turn, the target, the difference and how to record again", async () => {
  const edited = structuredClone(recorded);
  (edited.calls[2]!.request as { messages: { content: string }[] }).messages[0]!.content = "Thank you!";
  writeFileSync(join(dir.path, "desk.cassette.json"), JSON.stringify(edited));
  const cassette = replayer();
  await assert.rejects(play(cassette, tapedSeamSource(cassette, "desk")), {
    code: "cassette_mismatch",
    message:
      `Replay of ${cassette.path}: call 3 (turn 2 'thanks', target desk, Responses API) differs from the recording in messages[0].content:\n` +
      '  recorded: "Thank you!"\n' +
      '  now:      "Thanks!"\n' +
      "If the change is intended, record the cassette again with FLOW_MODEL=record.",
  });
});

test("a call made over another API than recorded fails replay naming where it was recorded", async () => {
  const edited = structuredClone(recorded);
  edited.calls[2]!.where = { target: "desk", api: "chat" };
  writeFileSync(join(dir.path, "desk.cassette.json"), JSON.stringify(edited));
  const cassette = replayer();
  await assert.rejects(play(cassette, tapedSeamSource(cassette, "desk")), {
    code: "cassette_mismatch",
    message:
      `Replay of ${cassette.path}: call 3 (turn 2 'thanks', target desk, Responses API) was recorded as a model call ` +
      "of target desk, Chat Completions. If the change is intended, record the cassette again with FLOW_MODEL=record.",
  });
});

test("recording with no live provider is refused before any call, saying to set the key", () => {
  const cassette = Cassette.open(loaded(), "record", { modelName: "gpt-4o", ci: false });
  assert.throws(() => tapedSeamSource(cassette, "desk"), {
    code: "cassette_mismatch",
    message: "Recording the model calls of target desk needs the live provider; set OPENAI_API_KEY.",
  });
});
