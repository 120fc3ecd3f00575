import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp, type App } from "../../src/create-app.ts";
import type { SessionDocument } from "../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { BasicFlow, basicFlowEntry } from "../fixtures/flows/index.ts";
import { tempDir } from "../support/temp-path.ts";

// ---------------------------------------------------------------------------------------------
// A local OpenAI-compatible server: it records every request and answers from a queue.
// ---------------------------------------------------------------------------------------------

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  // The JSON the SDK sent, checked field by field below.
  body: any;
}

interface Answer {
  status: number;
  json: unknown;
}

const received: Received[] = [];
const answers: Answer[] = [];
let server: Server;
let baseURL: string;

type WireToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

function completion(message: { content?: string; tool_calls?: WireToolCall[] }): Answer {
  return {
    status: 200,
    json: {
      id: `chatcmpl-${received.length}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: message.content ?? null,
            refusal: null,
            ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
          },
          finish_reason: message.tool_calls ? "tool_calls" : "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
}

const text = (content: string) => completion({ content });

function call(id: string, name: string, args: Record<string, unknown>): WireToolCall {
  return { id, type: "function", function: { name, arguments: JSON.stringify(args) } };
}

const calls = (...toolCalls: WireToolCall[]) => completion({ tool_calls: toolCalls });

/** The step's tools as the SDK must send them. */
function wireTools(step: string) {
  return BasicFlow.tools(step).map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      const answer = answers.shift() ?? {
        status: 500,
        json: { error: { message: "the test queued no answer for this request", type: "server_error" } },
      };
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
});

beforeEach(() => {
  received.length = 0;
  answers.length = 0;
});

async function liveApp(): Promise<{ app: App; close: () => Promise<void> }> {
  const dir = await tempDir("openai-live");
  const app = await createApp({
    flows: [basicFlowEntry],
    config: loadConfig({
      FLOW_MODEL: "live",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: baseURL,
      OPENAI_MAX_RETRIES: "0",
      OPENAI_TIMEOUT_MS: "5000",
    }),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
    log: () => {},
  });
  return {
    app,
    close: async () => {
      await app.close();
      dir.remove();
    },
  };
}

async function stored(app: App, id: string): Promise<SessionDocument> {
  const document = await app.engine.fetchAll(id);
  assert.ok(document, `session ${id} should be stored`);
  return document;
}

const NAME_PROMPT =
  "You collect the user's real full name. When the user gives a name, call save_name with it. " +
  "If the tool says the name is a placeholder, say so, quoting the name, and ask for their real name.";
const WEATHER_PROMPT =
  "The user is John Wick. Ask for exactly two city aliases (LA, NYC, SF, CHI, SEA, PDX) and call get_weather once per city. Do not ask for anything else.";
const PLACEHOLDER =
  '"John Doe" is a placeholder, not a real name. Tell the user "John Doe" is not accepted and ask for their real name.';

describe("OpenAIChatModel against a local OpenAI-compatible server", () => {
  test("the app runs BasicFlow in live mode when FLOW_MODEL=live", async () => {
    const { app, close } = await liveApp();
    try {
      assert.deepStrictEqual(app.modelModes, { BasicFlow: "live" });
      assert.equal(app.config.openai.baseURL, baseURL);
      assert.equal(app.config.openai.maxRetries, 0);
    } finally {
      await close();
    }
  });

  test("the SDK sends the model, the step's prompt and tools, and the tool calls and results; BasicFlow moves on the answers", async () => {
    const { app, close } = await liveApp();
    try {
      // Turn 1: the model calls save_name with a placeholder, reads the tool's refusal, and answers.
      answers.push(
        calls(call("call_a", "save_name", { name: "John Doe" })),
        text("John Doe looks like a placeholder. What is your real name?"),
      );
      const first = await app.engine.chat({ flow: "BasicFlow", message: "John Doe" });
      assert.equal(first.currentStep, "NameStep");
      assert.equal(first.response, "John Doe looks like a placeholder. What is your real name?");
      assert.equal(received.length, 2);

      for (const request of received) {
        assert.equal(request.method, "POST");
        assert.equal(request.url, "/v1/chat/completions");
        assert.equal(request.headers["authorization"], "Bearer test-key");
        assert.match(String(request.headers["content-type"]), /^application\/json/);
        assert.equal(request.body.model, "gpt-4o-mini");
        assert.deepStrictEqual(request.body.messages[0], { role: "system", content: NAME_PROMPT });
        assert.deepStrictEqual(request.body.tools, wireTools("NameStep"));
      }
      assert.deepStrictEqual(received[0]!.body.tools, [
        {
          type: "function",
          function: {
            name: "save_name",
            description: "Save the user's real full name.",
            parameters: {
              type: "object",
              properties: { name: { type: "string", minLength: 1, maxLength: 100 } },
              required: ["name"],
              additionalProperties: false,
            },
          },
        },
      ]);
      assert.deepStrictEqual(received[0]!.body.messages.slice(1), [{ role: "user", content: "John Doe" }]);
      assert.deepStrictEqual(received[1]!.body.messages.slice(1), [
        { role: "user", content: "John Doe" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "save_name", arguments: '{"name":"John Doe"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: PLACEHOLDER },
      ]);

      // Turn 2: a real name advances to WeatherStep, whose model answers in the same turn.
      answers.push(
        calls(call("call_b", "save_name", { name: "John Wick" })),
        text("Nice to meet you, John Wick. Which two cities?"),
      );
      const second = await app.engine.chat({ session: first.session, message: "John Wick" });
      assert.equal(second.currentStep, "WeatherStep");
      assert.equal(second.response, "Nice to meet you, John Wick. Which two cities?");
      assert.equal(received.length, 4);
      assert.deepStrictEqual(received[2]!.body.messages.slice(1), [
        { role: "user", content: "John Doe" },
        received[1]!.body.messages[2],
        received[1]!.body.messages[3],
        { role: "assistant", content: "John Doe looks like a placeholder. What is your real name?" },
        { role: "user", content: "John Wick" },
      ]);
      // WeatherStep's model gets the turn's message and NameStep's hand-off, as a system message.
      assert.deepStrictEqual(received[3]!.body.messages, [
        { role: "system", content: WEATHER_PROMPT },
        { role: "user", content: "John Wick" },
        { role: "system", content: "Hand-off from NameStep: Saved the name John Wick." },
      ]);
      assert.deepStrictEqual(received[3]!.body.tools, wireTools("WeatherStep"));
      assert.equal((await stored(app, first.session)).steps["NameStep"]?.["name"], "John Wick");

      // Turn 3: two tool calls in one reply; both run, the second advances to AddressStep.
      answers.push(
        calls(call("call_c", "get_weather", { cityName: "LA" }), call("call_d", "get_weather", { cityName: "NYC" })),
        text("It is 72°F in LA and 64°F in NYC. What is your address?"),
      );
      const third = await app.engine.chat({ session: first.session, message: "LA and NYC" });
      assert.equal(third.currentStep, "AddressStep");
      assert.equal(received.length, 6);
      assert.deepStrictEqual(received[4]!.body.messages.slice(1), [
        ...received[3]!.body.messages.slice(1),
        { role: "assistant", content: "Nice to meet you, John Wick. Which two cities?" },
        { role: "user", content: "LA and NYC" },
      ]);
      assert.equal(received[5]!.body.messages[0].role, "system");
      assert.match(received[5]!.body.messages[0].content, /^Weather found: LA 72°F, NYC 64°F\. /);
      assert.deepStrictEqual(received[5]!.body.messages.slice(1), [
        { role: "user", content: "LA and NYC" },
        {
          role: "system",
          content: "Hand-off from WeatherStep: NYC is 64°F. Both cities are saved: LA 72°F, NYC 64°F.",
        },
      ]);
      assert.deepStrictEqual(received[5]!.body.tools, wireTools("AddressStep"));
      const afterWeather = await stored(app, first.session);
      assert.deepStrictEqual(afterWeather.steps["WeatherStep"], { city_LA: 72, city_NYC: 64 });
      assert.deepStrictEqual(
        (afterWeather.memory["WeatherStep"] ?? [])
          .filter((m) => m.role === "tool")
          .map((m) => (m.role === "tool" ? m.toolCallId : "")),
        ["call_c", "call_d"],
      );

      // Turn 4: the child flow's model is the live one too; after complete, the closing call has no tools.
      const address = "1600 SW Murray Blvd, Beaverton, OR 97006";
      answers.push(
        calls(call("call_e", "check_address", { address })),
        calls(
          call("call_f", "normalize_address", {
            street: "1600 SW Murray Blvd",
            city: "Beaverton",
            state: "OR",
            zip: "97006",
          }),
        ),
        text("The address is valid."),
        text("Thank you, your address is saved."),
      );
      const last = await app.engine.chat({ session: first.session, message: address });
      assert.equal(last.runStatus, "completed");
      assert.equal(last.response, "Thank you, your address is saved.");
      assert.equal(received.length, 10);
      assert.match(received[7]!.body.messages[0].content, /^Split the US postal address/);
      assert.deepStrictEqual(received[7]!.body.messages.slice(1), [{ role: "user", content: address }]);
      assert.deepStrictEqual(
        received[7]!.body.tools.map((t: { function: { name: string } }) => t.function.name),
        ["normalize_address"],
      );
      assert.equal("tools" in received[8]!.body, false, "the child's closing call offers no tools");
      assert.equal("tools" in received[9]!.body, false, "the parent's closing call offers no tools");
      const document = await stored(app, first.session);
      assert.deepStrictEqual(document.steps["AddressStep"]?.["address"], {
        street: "1600 SW Murray Blvd",
        city: "Beaverton",
        state: "OR",
        zip: "97006",
      });
      assert.equal(document.children[0]?.flow, "AddressCheck");
      assert.equal(document.children[0]?.runStatus, "completed");
      assert.equal(answers.length, 0, "every queued answer was asked for");
    } finally {
      await close();
    }
  });

  test("a server answering HTTP 500 fails the turn with model_error (502), after exactly one request, and the session is unchanged", async () => {
    const { app, close } = await liveApp();
    try {
      answers.push(text("Hello! What is your full name?"));
      const started = await app.engine.chat({ flow: "BasicFlow", message: "hi" });
      assert.equal(started.response, "Hello! What is your full name?");
      const before = await stored(app, started.session);
      received.length = 0;

      answers.push({
        status: 500,
        json: { error: { message: "upstream exploded", type: "server_error", code: null, param: null } },
      });
      const response = await app.handler({
        method: "POST",
        url: "/ai/chat",
        headers: { "content-type": "application/json", chat_session_id: started.session },
        body: JSON.stringify({ message: "John Wick" }),
      });
      assert.equal(response.status, 502);
      const body = JSON.parse(response.body as string) as {
        success: boolean;
        session?: string;
        error: { code: string; message: string };
      };
      assert.equal(body.success, false);
      assert.equal(body.session, started.session);
      assert.equal(body.error.code, "model_error");
      assert.match(body.error.message, /The model "gpt-4o-mini" failed for BasicFlow\/NameStep \(HTTP 500\)/);
      assert.equal(received.length, 1, "maxRetries 0: no retry");
      assert.deepStrictEqual(received[0]!.body.messages.at(-1), { role: "user", content: "John Wick" });
      assert.deepStrictEqual(await stored(app, started.session), before);
    } finally {
      await close();
    }
  });

  test("a reply with no choices fails the turn with model_error", async () => {
    const { app, close } = await liveApp();
    try {
      answers.push({
        status: 200,
        json: { id: "chatcmpl-empty", object: "chat.completion", created: 0, model: "gpt-4o-mini", choices: [] },
      });
      await assert.rejects(app.engine.chat({ flow: "BasicFlow", message: "hi" }), (error: unknown) => {
        assert.equal((error as { code?: unknown }).code, "model_error");
        assert.match((error as Error).message, /answered with no choices/);
        return true;
      });
      assert.equal(received.length, 1);
    } finally {
      await close();
    }
  });
});
