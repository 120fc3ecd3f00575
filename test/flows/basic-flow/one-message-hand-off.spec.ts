import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { basicFlowEntry, basicFlowScripts } from "../../../src/flows/basic/index.ts";
import { startFakeOpenAI, type CompletionRequest, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { jsonClient } from "../../support/json-client.ts";
import { startTestServer } from "../../support/test-server.ts";

// One message that names the user and both cities: NameStep saves the name and hands the turn to
// WeatherStep, which finds the cities in the same message, saves both and hands it to AddressStep.

const MESSAGE = "I'm Ada, check LA and NYC";
const NAME_HANDOFF = "Hand-off from NameStep: Saved the name Ada.";
const WEATHER_HANDOFF = "Hand-off from WeatherStep: NYC is 64°F. Both cities are saved: LA 72°F, NYC 64°F.";
const ASKS_ADDRESS = "Today: LA 72°F, NYC 64°F. What is your US postal address, with the ZIP code?";

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

/** Sends MESSAGE to a new BasicFlow session over HTTP and checks where it ended and what it saved. */
async function playOneMessage(env: Record<string, string>): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry], env });
  const client = jsonClient(server.url);
  try {
    const answer = await client.post("/ai/chat", { flow: "BasicFlow", message: MESSAGE });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body["currentStep"], "AddressStep");
    assert.equal(answer.body["response"], ASKS_ADDRESS);
    const document = await server.app.engine.fetchAll(String(answer.body["session"]));
    assert.deepEqual(document?.steps["NameStep"], { name: "Ada" });
    assert.deepEqual(document.steps["WeatherStep"], { city_LA: 72, city_NYC: 64 });
  } finally {
    client.close();
    await server.close();
  }
}

/** The one request whose system prompt starts with `start`. */
function requestOf(start: string): CompletionRequest {
  const found = fake.requests.filter((request) => request.messages[0]?.content?.startsWith(start));
  assert.equal(found.length, 1, `requests starting "${start}": ${found.length}`);
  return found[0]!;
}

test("on the scripted model, one message with a name and two cities reaches AddressStep with both cities saved", async () => {
  await playOneMessage({});
});

test("on the live model path, one message with a name and two cities reaches AddressStep, each step's request carrying the message and its hand-off", async () => {
  fake.requests.length = 0;
  await playOneMessage({
    FLOW_MODEL: "live",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MAX_RETRIES: "0",
    OPENAI_TIMEOUT_MS: "5000",
  });
  // save_name, the two get_weather calls, then AddressStep's question: one request per step.
  assert.equal(fake.requests.length, 3);
  assert.deepEqual(requestOf("You collect the user's real full name").messages.slice(1), [
    { role: "user", content: MESSAGE },
  ]);
  assert.deepEqual(requestOf("The user is Ada.").messages.slice(1), [
    { role: "user", content: MESSAGE },
    { role: "system", content: NAME_HANDOFF },
  ]);
  assert.deepEqual(requestOf("Weather found: LA 72°F, NYC 64°F.").messages.slice(1), [
    { role: "user", content: MESSAGE },
    { role: "system", content: WEATHER_HANDOFF },
  ]);
});
