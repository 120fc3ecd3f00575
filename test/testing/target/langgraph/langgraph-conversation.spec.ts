import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import type { ScenarioTurn } from "../../../../src/testing/scenario/scenario.ts";
import type { TurnInput } from "../../../../src/testing/scenario/turn-input.ts";
import { LanggraphClient } from "../../../../src/testing/target/langgraph/langgraph-client.ts";
import { LanggraphConversation } from "../../../../src/testing/target/langgraph/langgraph-conversation.ts";
import { bodyOf, listenOnLoopback, type LoopbackServer } from "../../../support/loopback-server.ts";

// A small stand-in for a LangGraph server on 127.0.0.1 that logs every request: each runs/wait
// answers the next output given to it, and the thread's state waits on an interrupt.

const ASKING = { messages: [], __interrupt__: [{ id: "i1", value: "Confirm?" }] };
const DONE = { messages: [{ type: "ai", content: "Saved." }] };

let server: LoopbackServer;
let requests: { method: string; path: string; body: unknown }[] = [];
let outputs: Record<string, unknown>[] = [];
let stateValues: Record<string, unknown> = {};

before(async () => {
  server = await listenOnLoopback(async (request, response) => {
    const text = await bodyOf(request);
    const path = request.url ?? "";
    requests.push({ method: request.method ?? "", path, body: text ? JSON.parse(text) : undefined });
    const answer =
      path === "/threads"
        ? { thread_id: "t1" }
        : path.endsWith("/state")
          ? {
              values: stateValues,
              next: ["confirm"],
              tasks: [{ id: "k1", name: "confirm", interrupts: [{ value: "Confirm?" }] }],
            }
          : outputs.shift();
    response.writeHead(answer === undefined ? 500 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(answer ?? { error: "no output left" }));
  });
});
after(() => server.close());
beforeEach(() => {
  requests = [];
  outputs = [];
  stateValues = {};
});

function conversation(): LanggraphConversation {
  return new LanggraphConversation(new LanggraphClient({ baseUrl: server.url }), "intake", undefined);
}

function turn(label: string, input: TurnInput): ScenarioTurn {
  return { label, input, expectedActiveStep: "confirm" };
}

/** Each request as `METHOD path`, and what a runs/wait sent: its message or its resume value. */
function log(): string[] {
  return requests.map(({ method, path, body }) => {
    const run = body as { input?: { messages: { content: string }[] }; command?: { resume: unknown } } | undefined;
    const sent = run?.command
      ? ` resume ${JSON.stringify(run.command.resume)}`
      : run?.input
        ? ` message ${JSON.stringify(run.input.messages[0]!.content)}`
        : "";
    return `${method} ${path}${sent}`;
  });
}

test("a turn on a thread this conversation has run reads no state before its run: the last run's output said whether it waits", async () => {
  const talk = conversation();
  outputs.push(ASKING, DONE, ASKING);
  const first = await talk.send(turn("asks", "hi"), undefined);
  await talk.send(turn("confirms", { confirm: true }), first.session);
  await talk.send(turn("starts over", "again"), first.session);
  assert.deepEqual(log(), [
    "POST /threads",
    'POST /threads/t1/runs/wait message "hi"',
    'POST /threads/t1/runs/wait resume {"confirm":true}',
    'POST /threads/t1/runs/wait message "again"',
  ]);
});

test("a JSON value resumes the pending interrupt as it is, and the exchange shows it as JSON", async () => {
  const talk = conversation();
  outputs.push(ASKING, DONE);
  const first = await talk.send(turn("asks", "hi"), undefined);
  const resumed = await talk.send(turn("confirms", { confirm: true, items: [1, null] }), first.session);
  assert.deepEqual(requests.at(-1)?.body, {
    assistant_id: "intake",
    command: { resume: { confirm: true, items: [1, null] } },
  });
  assert.equal(
    resumed.exchange.request.body,
    '{"assistant_id":"intake","command":{"resume":{"confirm":true,"items":[1,null]}}}',
  );
  assert.equal(resumed.answer.text, "Saved.");
});

test("a thread this conversation has not run is read once, to learn that it waits on an interrupt", async () => {
  const talk = conversation();
  outputs.push(ASKING, DONE);
  await talk.send(turn("resumes", false), "t1");
  await talk.send(turn("resumes again", 7), "t1");
  assert.deepEqual(log(), [
    "GET /threads/t1/state",
    "POST /threads/t1/runs/wait resume false",
    "POST /threads/t1/runs/wait resume 7",
  ]);
});

test("a JSON value on a thread that waits on no interrupt fails the turn, saying a user message must be text, and sends nothing", async () => {
  const talk = conversation();
  outputs.push(DONE);
  const first = await talk.send(turn("asks", "hi"), undefined);
  const sent = requests.length;
  await assert.rejects(talk.send(turn("confirms", { confirm: true }), first.session), (error) => {
    assert.ok(isFlowcheckError(error, "scenario_failed"), String(error));
    assert.match(
      error.message,
      /^the input \{"confirm":true\} is an object, but thread t1 of graph intake waits on no interrupt, so the turn is a user message, which must be text; nothing was sent\./,
    );
    return true;
  });
  assert.equal(requests.length, sent);
});

test("a JSON value as the first turn of a thread fails without making the thread: a new thread waits on nothing", async () => {
  await assert.rejects(conversation().send(turn("confirms", [true]), undefined), (error) =>
    isFlowcheckError(error, "scenario_failed"),
  );
  assert.deepEqual(log(), []);
});

test("each turn reports the tool calls of the AI messages its run added, with their tool messages; none is an empty list", async () => {
  const talk = conversation();
  const calling = {
    messages: [
      { type: "human", content: "weather in Lisbon" },
      { type: "ai", content: "", tool_calls: [{ name: "get_weather", args: { city: "Lisbon" }, id: "c1" }] },
      { type: "tool", content: '{"celsius":24}', tool_call_id: "c1", status: "success" },
      { type: "ai", content: "24 °C.", tool_calls: [] },
    ],
  };
  outputs.push(calling, { messages: [...calling.messages, { type: "human", content: "thanks" }, DONE.messages[0]] });
  const first = await talk.send(turn("asks", "weather in Lisbon"), undefined);
  assert.deepEqual(first.toolCalls, [
    { name: "get_weather", args: { city: "Lisbon" }, output: { celsius: 24 }, status: "returned", id: "c1" },
  ]);
  const second = await talk.send(turn("thanks", "thanks"), first.session);
  assert.deepEqual(second.toolCalls, []);
});

test("a run whose values keep no messages reports no tool calls, and the conversation says why", async () => {
  const talk = conversation();
  outputs.push({ name: "Ada", city: "Lisbon" });
  const sent = await talk.send(turn("asks", "hi"), undefined);
  assert.equal(sent.toolCalls, undefined);
  assert.match(talk.toolCallsUnknown, /^the thread of graph intake keeps no messages list in its values/);
});

test("a run stopped at an interrupt answers the interrupt alone, so its tool calls are read from the thread's state: a call waiting for its tool is pending", async () => {
  const talk = conversation();
  stateValues = {
    messages: [
      { type: "human", content: "A table for 2 on Monday" },
      { type: "ai", content: "", tool_calls: [{ name: "book_table", args: { guests: 2 }, id: "c1" }] },
    ],
  };
  outputs.push({ __interrupt__: [{ id: "i1", value: "Book it?" }] });
  const sent = await talk.send(turn("asks", "A table for 2 on Monday"), undefined);
  assert.deepEqual(log().slice(1), [
    'POST /threads/t1/runs/wait message "A table for 2 on Monday"',
    "GET /threads/t1/state",
  ]);
  assert.deepEqual(sent.toolCalls, [{ name: "book_table", args: { guests: 2 }, status: "pending", id: "c1" }]);
  assert.equal(sent.answer.text, "Book it?");
});
