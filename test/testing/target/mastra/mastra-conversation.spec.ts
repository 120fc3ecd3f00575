import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import type { ScenarioTurn } from "../../../../src/testing/scenario/scenario.ts";
import { MastraClient } from "../../../../src/testing/target/mastra/mastra-client.ts";
import { MastraConversation } from "../../../../src/testing/target/mastra/mastra-conversation.ts";
import { MastraSessions } from "../../../../src/testing/target/mastra/mastra-sessions.ts";
import type { MastraTargetEntry } from "../../../../src/testing/target/mastra/mastra-target-entry.ts";
import { storedTurnProblems } from "../../../../src/testing/target/mastra/stored-turn-problems.ts";
import { startMastraServer, type MastraServer } from "../../../support/mastra-server.ts";

// The fixture's real Mastra server (@mastra/core 1.x, its hono adapter, in-memory storage), its
// agent tripDesk on the AI SDK's MockLanguageModelV4, scripted: one server for the file.

let server: MastraServer;

before(async () => {
  server = await startMastraServer();
});
after(async () => {
  await server?.close();
});

function client(entry: Partial<MastraTargetEntry> = {}): MastraClient {
  return new MastraClient({ kind: "mastra", baseUrl: server.baseUrl, workingMemory: "", ...entry }, "desk");
}

function turn(label: string, input: string): ScenarioTurn {
  return { label, input };
}

const WEATHER = { name: "lookupWeather", args: { city: "Lisbon" }, output: { city: "Lisbon", tempC: 21 } };

for (const mode of ["stream", "generate"] as const) {
  describe(`a conversation on /${mode}`, () => {
    test("each turn sends the new message alone in the conversation's thread, and reads its text and tool calls", async () => {
      const conversation = new MastraConversation(client({ mode }), "tripDesk");
      const first = await conversation.send(turn("weather", "What is the weather in Lisbon?"), undefined);
      assert.equal(first.answer.text, "It is 21°C in Lisbon.");
      assert.deepEqual(
        first.toolCalls?.map(({ id: _id, ...call }) => call),
        [{ ...WEATHER, status: "returned" }],
      );
      assert.equal(first.exchange.request.method, "POST");
      assert.equal(first.exchange.request.path, `/api/agents/tripDesk/${mode}`);
      assert.deepEqual(JSON.parse(first.exchange.request.body), {
        messages: "What is the weather in Lisbon?",
        memory: { thread: first.session, resource: "flowcheck" },
      });
      assert.deepEqual(
        first.checks.map((check) => [check.name, check.outcome, check.message]),
        [
          ["status", "passed", undefined],
          ["stored messages", "passed", undefined],
        ],
      );

      const second = await conversation.send(turn("booking", "Book a table for 12 at Tasca"), first.session);
      assert.equal(second.session, first.session);
      assert.deepEqual(
        second.toolCalls?.map(({ id: _id, ...call }) => call),
        [
          {
            name: "bookTable",
            args: { restaurant: "Tasca", people: 12 },
            output: { error: "no table for 12 at Tasca" },
            status: "failed",
          },
        ],
      );
      assert.equal(second.checks.find((check) => check.name === "stored messages")?.outcome, "passed");

      const chat = await conversation.send(turn("chat", "Thanks"), first.session);
      assert.deepEqual(chat.toolCalls, [], "a turn that called no tool reports an empty list");
    });
  });
}

test("the stored thread is checked against the answer: a differing text, argument or output is named", async () => {
  const desk = client();
  const sent = await new MastraConversation(desk, "tripDesk").send(turn("weather", "Weather in Porto"), undefined);
  const stored = (await desk.messages(sent.session!, "tripDesk"))!;
  const [call] = sent.toolCalls!;
  const answer = { text: sent.answer.text, toolCalls: sent.toolCalls! };
  assert.deepEqual(storedTurnProblems(stored, "Weather in Porto", answer), []);
  assert.deepEqual(storedTurnProblems(stored, "Weather in Faro", answer), [
    `the thread's last user message is "Weather in Porto", not the turn's "Weather in Faro"`,
  ]);
  const differing = {
    text: "It is 30°C in Porto.",
    toolCalls: [{ ...call!, args: { city: "Faro" } }],
    messageId: "m-unknown",
  };
  const problems = storedTurnProblems(stored, "Weather in Porto", differing);
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(problems[0]!, /^the answer's message m-unknown is not stored \(stored: [0-9a-f-]{36}\)$/);
  assert.equal(problems[1], `the stored text is "It is 20°C in Porto.", the answer's "It is 30°C in Porto."`);
  assert.equal(
    problems[2],
    `the call ${call!.id} of lookupWeather is stored with args {"city":"Porto"}, the answer's {"city":"Faro"}`,
  );
});

test("the thread as a session: its user messages are its turns, its working memory at the pointer its state", async () => {
  const desk = client();
  const conversation = new MastraConversation(desk, "tripDesk");
  const sessions = new MastraSessions(desk, "tripDesk");
  const first = await conversation.send(turn("chat", "Hello"), undefined);
  const before = await sessions.fetchAll(first.session!);
  assert.equal(before?.turns, 1);
  assert.deepEqual(before?.steps, {}, "a working memory never written is an empty state");
  await conversation.send(turn("name", "My name is Ada"), first.session);
  const after = await sessions.fetchAll(first.session!);
  assert.equal(after?.turns, 2);
  assert.deepEqual(after?.steps, { name: "Ada" });
  assert.equal(after?.flow.name, "tripDesk");
  assert.equal(await sessions.fetchAll("no-such-thread"), undefined);
  await assert.rejects(
    new MastraSessions(client({ workingMemory: "/name" }), "tripDesk").fetchAll(first.session!),
    (error) =>
      isFlowcheckError(error, "target_invalid_answer") &&
      /^targets\.desk\.workingMemory "\/name" finds "Ada", not an object of state, in the working memory \{"name":"Ada"\}/.test(
        error.message,
      ),
  );
});

test("an agent the server lacks fails the turn naming the target and the agents it has", async () => {
  await assert.rejects(
    new MastraConversation(client(), "travelDesk").send(turn("weather", "Weather in Lisbon"), undefined),
    (error) =>
      isFlowcheckError(error, "target_invalid_answer") &&
      error.message ===
        `targets.desk (${server.baseUrl}) has no agent "travelDesk"; its agents are tripDesk. ` +
          "Set the scenario's flowName to the id of one of them, or point the target's baseUrl at the server that has it.",
  );
});

test("an error chunk fails the turn with the error, naming the request", async () => {
  await assert.rejects(
    new MastraConversation(client(), "tripDesk").send(turn("crash", "crash"), undefined),
    (error) =>
      isFlowcheckError(error, "target_invalid_answer") &&
      error.message ===
        `POST ${server.baseUrl}/api/agents/tripDesk/stream answered 200, but the stream has an error chunk: ` +
          `"the model crashed"; see the server's log.`,
  );
});

test("a turn the server does not finish within the entry's timeoutMs fails, naming the key to raise", async () => {
  const started = performance.now();
  await assert.rejects(
    new MastraConversation(client({ timeoutMs: 300 }), "tripDesk").send(turn("hang", "hang"), undefined),
    (error) =>
      isFlowcheckError(error, "target_unreachable") &&
      error.message ===
        `POST ${server.baseUrl}/api/agents/tripDesk/stream gave no whole answer within 300 ms; the server may be stuck, ` +
          "or slower than that: raise targets.desk.timeoutMs in flowcheck.config.json if so.",
  );
  assert.ok(performance.now() - started < 5_000);
});

test("the server made no connection off this machine: its telemetry is off and the model is scripted", () => {
  assert.doesNotMatch(server.output(), /outbound connection refused/);
});
