import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { after, before, test } from "node:test";
import { type CompletionRequest, type FakeOpenAI, startFakeOpenAI } from "../../../support/fake-openai-server.ts";
import { type LanggraphDevServer, startLanggraphDevServer } from "../../../support/langgraph-dev-server.ts";

/**
 * The LangGraph fixture's agent with `AGENT_MODEL=openai`: `@langchain/openai`'s ChatOpenAI with
 * the agent's tools bound, calling the Chat Completions server at OPENAI_BASE_URL, here a stand-in
 * on 127.0.0.1 that asks for the weather tool first and answers with the tool's result after.
 */
const KEY = "sk-stand-in-key";
let fake: FakeOpenAI;
let server: LanggraphDevServer;
const headers: IncomingHttpHeaders[] = [];

before(async () => {
  fake = await startFakeOpenAI([]);
  fake.answer = (request, _index, received) => {
    headers.push(received);
    const last = request.messages.at(-1)!;
    if (last.role === "tool") return { reply: { content: `Lisbon today: ${last.content}.`, toolCalls: [] } };
    const id = `call_weather_${fake.requests.length}`;
    return { reply: { content: "", toolCalls: [{ id, name: "get_weather", arguments: '{"city":"Lisbon"}' }] } };
  };
  // OPENAI_API_BASE would win over OPENAI_BASE_URL in ChatOpenAI, so none is left in the environment.
  server = await startLanggraphDevServer(undefined, {
    AGENT_MODEL: "openai",
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: KEY,
    OPENAI_API_BASE: undefined,
  });
});

after(async () => {
  await server?.close();
  await fake?.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `POST ${path} answered ${response.status}: ${await response.clone().text()}`);
  return response;
}

/** Plays one user message through the agent graph on a new thread; resolves to the requests it made of the model. */
async function playTurn(streamMode?: string): Promise<{ requests: CompletionRequest[]; answer: string }> {
  const from = fake.requests.length;
  const { thread_id } = (await (await post("/threads", {})).json()) as { thread_id: string };
  const input = { messages: [{ role: "user", content: "What's the weather in Lisbon?" }] };
  const run = { assistant_id: "agent", input };
  if (streamMode) await (await post(`/threads/${thread_id}/runs/stream`, { ...run, stream_mode: [streamMode] })).text();
  else await post(`/threads/${thread_id}/runs/wait`, run);
  const state = (await (await fetch(`${server.baseUrl}/threads/${thread_id}/state`)).json()) as {
    values: { messages: { content: string }[] };
  };
  return { requests: fake.requests.slice(from), answer: state.values.messages.at(-1)!.content };
}

/** What every request the agent's model makes holds: the system prompt first and both bound tools. */
function assertAgentRequest(request: CompletionRequest): void {
  assert.deepEqual(request.messages[0], {
    role: "system",
    content: "You are a restaurant's desk: you tell the weather in a city and book tables.",
  });
  assert.deepEqual(
    request.tools?.map((tool) => [tool.type, tool.function.name, tool.function.parameters]),
    [
      ["function", "get_weather", { type: "object", properties: { city: { type: "string" } }, required: ["city"] }],
      [
        "function",
        "book_table",
        {
          type: "object",
          properties: { guests: { type: "integer" }, day: { type: "string" } },
          required: ["guests", "day"],
        },
      ],
    ],
  );
  assert.equal(request.model, "gpt-4o-mini");
}

test("with AGENT_MODEL=openai the agent calls the Chat Completions server at OPENAI_BASE_URL, streamed: its prompt and tools on each call, the tool's result in the second", async () => {
  const { requests, answer } = await playTurn();
  assert.equal(requests.length, 2, JSON.stringify(requests));
  for (const request of requests) assertAgentRequest(request);
  const [first, second] = requests;
  assert.deepEqual(first!.messages.slice(1), [{ role: "user", content: "What's the weather in Lisbon?" }]);
  const call = second!.messages[2]!;
  assert.equal(call.role, "assistant");
  assert.deepEqual(
    call.tool_calls?.map((sent) => [sent.function.name, sent.function.arguments]),
    [["get_weather", '{"city":"Lisbon"}']],
  );
  assert.deepEqual(second!.messages[3], {
    role: "tool",
    content: "sunny, 24 °C in Lisbon",
    name: "get_weather",
    tool_call_id: call.tool_calls![0]!.id,
  });
  assert.equal(answer, "Lisbon today: sunny, 24 °C in Lisbon.");
  // The dev server runs every graph with streaming callbacks, so even runs/wait streams the model.
  assert.deepEqual(
    requests.map((request) => [request.stream, request.stream_options?.include_usage]),
    [
      [true, true],
      [true, true],
    ],
  );
});

test("the agent's model sends the key of its environment on every call, in a run streamed in messages mode too", async () => {
  const { requests, answer } = await playTurn("messages");
  assert.equal(requests.length, 2);
  for (const request of requests) assertAgentRequest(request);
  assert.equal(requests[1]!.messages[3]!.content, "sunny, 24 °C in Lisbon");
  assert.equal(answer, "Lisbon today: sunny, 24 °C in Lisbon.");
  assert.equal(headers.length, fake.requests.length);
  for (const received of headers) assert.equal(received.authorization, `Bearer ${KEY}`);
});
