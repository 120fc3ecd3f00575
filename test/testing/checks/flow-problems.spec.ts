import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatClient } from "../../../src/testing/client/chat-client.ts";
import { flowProblems } from "../../../src/testing/checks/flow-problems.ts";
import { FakeChatServer, fakeScenario, jsonReply, type FakeOptions } from "../../support/fake-chat-server.ts";

const scenario = fakeScenario(
  [
    { label: "first", input: "hello", expectedActiveStep: "AskStep", expectState: { AskStep: { said: "hello" } } },
    { label: "second", input: "again", expectedActiveStep: "NextStep" },
  ],
  { finalState: { NextStep: { said: "again" } } },
).scenario;

/** The problems flowProblems finds on a fake server made with `options`. */
async function problemsOn(options: FakeOptions): Promise<{ problems: string[]; url: string }> {
  const fake = await FakeChatServer.start(options);
  const client = new ChatClient(fake.url);
  try {
    return { problems: await flowProblems(client, scenario), url: fake.url };
  } finally {
    client.close();
    await fake.close();
  }
}

const listing = (flows: unknown) => jsonReply(200, { flows });

test("a target that lists the scenario's flow with every step the scenario names serves it", async () => {
  assert.deepEqual((await problemsOn({})).problems, []);
});

test("a target that does not list the scenario's flow is named with the flows it lists", async () => {
  const { problems, url } = await problemsOn({
    flows: listing([
      { name: "HotelFlow", steps: ["SearchStep"] },
      { name: "InvoiceFlow", steps: [] },
    ]),
  });
  assert.deepEqual(problems, [
    `GET ${url}/ai/flows does not list FakeFlow; it lists HotelFlow, InvoiceFlow. Is this the server the scenario is meant for?`,
  ]);
});

test("a target whose flow lacks a step the scenario names gets one problem per place in the file that names it", async () => {
  const { problems } = await problemsOn({ flows: listing([{ name: "FakeFlow", steps: ["AskStep"] }]) });
  assert.deepEqual(problems, [
    'turns[1].expectedActiveStep (turn "second"): the target\'s FakeFlow has no step NextStep; its steps are AskStep.',
    "finalState.NextStep: the target's FakeFlow has no step NextStep; its steps are AskStep.",
  ]);
});

test("a target that does not answer GET /ai/flows with a list of flows says what it answered", async () => {
  const missing = await problemsOn({
    flows: jsonReply(404, { success: false, error: { code: "not_found", message: "no such route" } }),
  });
  assert.deepEqual(missing.problems, [
    `GET ${missing.url}/ai/flows answered 404 "{\\"success\\":false,\\"error\\":{\\"code\\":\\"not_found\\",\\"message\\":\\"no such route\\"}}"; a flowcheck server lists its flows there as {"flows": [{"name", "steps", …}]}.`,
  ]);
  const shapeless = await problemsOn({ flows: listing([{ name: "FakeFlow" }]) });
  assert.match(shapeless.problems[0]!, /answered 200 .*a flowcheck server lists its flows there/);
});
