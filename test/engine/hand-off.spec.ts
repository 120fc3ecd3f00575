import assert from "node:assert/strict";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp, type App } from "../../src/create-app.ts";
import type { FlowEntry, MemoryEntry } from "../../src/engine/index.ts";
import { FLOW_MEMORY, type SessionDocument } from "../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { BOUNCE_NOTE, handOffFlow } from "../support/hand-off-flow.ts";
import { tempDir } from "../support/temp-path.ts";

const FORWARDED: MemoryEntry = { role: "handoff", from: "AskStep", content: "Forwarded: answer the user." };
const SENT_BACK: MemoryEntry = { role: "handoff", from: "AnswerStep", content: "Sent back: ask the user again." };

async function openApp(path: string, entry: FlowEntry): Promise<App> {
  return createApp({
    flows: [entry],
    config: loadConfig({}),
    store: new SqliteSessionStore(path),
    log: () => undefined,
  });
}

/** HandOffFlow on its own SQLite file; the app is closed and the file removed after the test. */
async function harness(t: TestContext) {
  const dir = await tempDir("hand-off");
  const path = join(dir.path, "sessions.sqlite");
  const { entry, seen } = handOffFlow();
  const app = await openApp(path, entry);
  t.after(async () => {
    await app.close();
    dir.remove();
  });
  const stored = async (id: string): Promise<SessionDocument> => {
    const document = await app.engine.fetchAll(id);
    assert.ok(document, `session ${id} should be stored`);
    return document;
  };
  return { app, engine: app.engine, seen, stored, path, entry };
}

test("a step entered by advance is sent the turn's user message, then the hand-off, and its script's latest is the hand-off", async (t) => {
  const { engine, seen, stored } = await harness(t);
  const outcome = await engine.chat({ flow: "HandOffFlow", message: "!forward" });
  assert.equal(outcome.currentStep, "AnswerStep");
  assert.equal(outcome.response, "AnswerStep was handed the turn by AskStep: Forwarded: answer the user.");

  const entered = seen.find((request) => request.step === "AnswerStep");
  assert.ok(entered, "AnswerStep's model was called");
  assert.deepStrictEqual(entered.messages, [{ role: "user", content: "!forward" }, FORWARDED]);
  assert.deepStrictEqual(entered.latest, FORWARDED);

  const document = await stored(outcome.session);
  assert.deepStrictEqual(document.memory["AnswerStep"], [
    { role: "user", content: "!forward" },
    FORWARDED,
    { role: "assistant", content: outcome.response },
  ]);
  // The hand-off is the models' business: the conversation the user saw has none.
  assert.deepStrictEqual(document.memory[FLOW_MEMORY], [
    { role: "user", content: "!forward" },
    { role: "assistant", content: outcome.response },
  ]);
});

test("an advance with a handoff of its own leaves the next step that note, and its own step's model the message", async (t) => {
  const { engine, stored } = await harness(t);
  const outcome = await engine.chat({ flow: "HandOffFlow", message: "!note" });
  assert.equal(outcome.response, "AnswerStep was handed the turn by AskStep: A note for AnswerStep alone.");
  const { memory } = await stored(outcome.session);
  assert.deepStrictEqual(memory["AskStep"]?.at(-1), {
    role: "tool",
    toolCallId: "call_1_note",
    name: "note",
    content: "Noted.",
  });
  assert.deepStrictEqual(memory["AnswerStep"]?.[1], {
    role: "handoff",
    from: "AskStep",
    content: "A note for AnswerStep alone.",
  });
});

test("a step returned to in a later turn gets the turn's message and the hand-off after its own earlier memory", async (t) => {
  const { engine, seen, stored } = await harness(t);
  const first = await engine.chat({ flow: "HandOffFlow", message: "!forward" });
  const before = (await stored(first.session)).memory["AskStep"] ?? [];
  seen.length = 0;

  const back = await engine.chat({ session: first.session, message: "!back" });
  assert.equal(back.currentStep, "AskStep");
  assert.equal(back.response, "AskStep was handed the turn by AnswerStep: Sent back: ask the user again.");
  const returned = seen.find((request) => request.step === "AskStep");
  assert.ok(returned, "AskStep's model was called");
  assert.deepStrictEqual(returned.messages, [...before, { role: "user", content: "!back" }, SENT_BACK]);
  assert.deepStrictEqual(returned.latest, SENT_BACK);
  assert.equal(before.length, 3, "AskStep kept its first turn: the user's message, the forward call and its result");
});

test("a turn that leaves a step and comes back to it gives that step the user's message once, and each step its own hand-off", async (t) => {
  const { engine, stored } = await harness(t);
  const outcome = await engine.chat({ flow: "HandOffFlow", message: "!bounce" });
  assert.equal(outcome.currentStep, "AskStep");
  assert.equal(outcome.response, "AskStep was handed the turn by AnswerStep: Sent back: ask the user again.");
  const { memory, execution } = await stored(outcome.session);
  assert.deepStrictEqual(
    execution.map((entry) => [entry.step, entry.name, entry.to]),
    [
      ["AskStep", "bounce", "AnswerStep"],
      ["AnswerStep", "back", "AskStep"],
    ],
  );
  assert.deepStrictEqual(
    memory["AskStep"]?.map((entry) => entry.role),
    ["user", "assistant", "tool", "handoff", "assistant"],
  );
  assert.deepStrictEqual(memory["AskStep"]?.[3], SENT_BACK);
  assert.deepStrictEqual(memory["AnswerStep"]?.slice(0, 2), [
    { role: "user", content: "!bounce" },
    { role: "handoff", from: "AskStep", content: BOUNCE_NOTE },
  ]);
});

test("an advance to the step itself puts the hand-off after every tool result of the reply, and the user's message is not repeated", async (t) => {
  const { engine, seen, stored } = await harness(t);
  const outcome = await engine.chat({ flow: "HandOffFlow", message: "!again | forward" });
  assert.equal(outcome.currentStep, "AskStep");
  const again = { role: "handoff", from: "AskStep", content: "Asked again." } as const;
  assert.deepStrictEqual(seen.at(-1)?.latest, again);
  assert.deepStrictEqual((await stored(outcome.session)).memory["AskStep"]?.slice(0, 5), [
    { role: "user", content: "!again | forward" },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "call_1_again", name: "again", arguments: "{}" },
        { id: "call_2_forward", name: "forward", arguments: "{}" },
      ],
    },
    { role: "tool", toolCallId: "call_1_again", name: "again", content: "Asked again." },
    {
      role: "tool",
      toolCallId: "call_2_forward",
      name: "forward",
      content: "Not run: an earlier call in this reply already ended the step.",
    },
    again,
  ]);
});

test("a hand-off is stored with the session: after a restart the step's model still sees it", async (t) => {
  const { engine, path, entry } = await harness(t);
  const first = await engine.chat({ flow: "HandOffFlow", message: "!forward" });

  const { entry: restartedEntry, seen } = handOffFlow();
  assert.equal(restartedEntry.flow, entry.flow);
  const restarted = await openApp(path, restartedEntry);
  try {
    const next = await restarted.engine.chat({ session: first.session, message: "!back" });
    assert.equal(next.currentStep, "AskStep");
  } finally {
    await restarted.close();
  }
  const answer = seen.find((request) => request.step === "AnswerStep");
  assert.deepStrictEqual(answer?.messages.slice(0, 2), [{ role: "user", content: "!forward" }, FORWARDED]);
});
