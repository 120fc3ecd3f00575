import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ScenarioTurn } from "../../../../src/testing/scenario/scenario.ts";
import { AiSdkConversation } from "../../../../src/testing/target/ai-sdk/ai-sdk-conversation.ts";
import type { AiSdkTargetEntry } from "../../../../src/testing/target/ai-sdk/ai-sdk-target-entry.ts";
import { fixtureAi, startAiSdkServer, type AiSdkServer } from "../../../support/ai-sdk-server.ts";
import { bodyOf, listenOnLoopback } from "../../../support/loopback-server.ts";

// The ai-sdk conversation against the fixture booking chat, held to what the SDK's own chat client
// (AbstractChat over DefaultChatTransport, as useChat drives it) sends the same route for the same
// messages: the same bodies, ids aside.

const SAID = ["Hello", "A room in Lisbon for 2 nights", "Book it for nobody", "Book it for Ada"];

let app: AiSdkServer;
let ai: Record<string, any>;

before(async () => {
  [app, ai] = await Promise.all([startAiSdkServer(), fixtureAi()]);
});

after(() => app?.close());

const turnOf = (input: string): ScenarioTurn => ({ label: input, input });

/** Each id-like string (16 letters and digits) replaced by its order of first appearance, so two chats compare. */
function withIdsNumbered(bodies: string[]): unknown[] {
  const ids = new Map<string, string>();
  return bodies.map((body) =>
    JSON.parse(
      body.replace(/"[0-9A-Za-z]{16}"/g, (id) => {
        if (!ids.has(id)) ids.set(id, `"id-${ids.size}"`);
        return ids.get(id)!;
      }),
    ),
  );
}

/** The SDK's own chat client sending `SAID` to the route, one message after the answer to the last: the bodies it sent. */
async function sdkBodies(api: string): Promise<string[]> {
  const bodies: string[] = [];
  const state = {
    status: "ready",
    error: undefined,
    messages: [] as unknown[],
    pushMessage(message: unknown) {
      state.messages = [...state.messages, message];
    },
    popMessage() {
      state.messages = state.messages.slice(0, -1);
    },
    replaceMessage(index: number, message: unknown) {
      state.messages = state.messages.map((old, at) => (at === index ? message : old));
    },
    snapshot: <T>(thing: T): T => structuredClone(thing),
  };
  const transport = new ai["DefaultChatTransport"]({
    api,
    fetch: (url: string, init: RequestInit) => {
      bodies.push(init.body as string);
      return fetch(url, init);
    },
  });
  // AbstractChat is what useChat runs, with React's state in place of this one.
  const Chat = ai["AbstractChat"] as new (
    options: object,
  ) => {
    sendMessage(message: object): Promise<void>;
    status: string;
    error: unknown;
  };
  const chat = new Chat({ transport, state });
  for (const text of SAID) {
    await chat.sendMessage({ text });
    assert.equal(chat.status, "ready", String(chat.error));
  }
  return bodies;
}

async function flowcheckBodies(entry: AiSdkTargetEntry): Promise<string[]> {
  const conversation = new AiSdkConversation(entry, "booking");
  const bodies: string[] = [];
  let session: string | undefined;
  for (const text of SAID) {
    const sent = await conversation.send(turnOf(text), session);
    session = sent.session;
    bodies.push(sent.exchange.request.body as string);
  }
  return bodies;
}

test("each turn's request body is the one the SDK's own chat client sends for the same messages, the answers rebuilt as it keeps them", async () => {
  const flowcheck = await flowcheckBodies({ kind: "ai-sdk", baseUrl: app.baseUrl });
  const sdk = await sdkBodies(`${app.baseUrl}/api/chat`);
  assert.deepEqual(withIdsNumbered(flowcheck), withIdsNumbered(sdk));
  assert.equal((JSON.parse(flowcheck.at(-1)!) as { messages: unknown[] }).messages.length, 7);
});

test("each turn reports the tools its stream called, none for a turn that called none", async () => {
  const conversation = new AiSdkConversation({ kind: "ai-sdk", baseUrl: app.baseUrl }, "booking");
  const calls = [];
  let session: string | undefined;
  for (const text of SAID) {
    const sent = await conversation.send(turnOf(text), session);
    session = sent.session;
    calls.push(sent.toolCalls);
  }
  assert.deepEqual(calls, [
    [],
    [
      {
        name: "findRoom",
        args: { city: "Lisbon", nights: 2 },
        id: "call-1",
        output: { hotel: "Hotel Sol", city: "Lisbon", nights: 2, price: 240 },
        status: "returned",
      },
    ],
    [
      {
        name: "bookRoom",
        args: { hotel: "Hotel Sol", guest: "" },
        id: "call-2",
        output: { error: "Error: a booking needs the guest's name" },
        status: "failed",
      },
    ],
    [
      {
        name: "bookRoom",
        args: { hotel: "Hotel Sol", guest: "Ada" },
        id: "call-3",
        output: { reference: "SOL-ADA-1", hotel: "Hotel Sol", guest: "Ada" },
        status: "returned",
      },
    ],
  ]);
});

test('send "last" posts only the new message under the chat id, the entry\'s body and headers beside it, to its path', async (t) => {
  const seen: { url: string; headers: Record<string, unknown>; body: unknown }[] = [];
  const route = await listenOnLoopback(async (request, response) => {
    seen.push({ url: request.url ?? "", headers: request.headers, body: JSON.parse(await bodyOf(request)) });
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end('data: {"type":"start"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n');
  });
  t.after(() => route.close());
  const entry: AiSdkTargetEntry = {
    kind: "ai-sdk",
    baseUrl: route.url,
    path: "/chat/last",
    send: "last",
    body: { locale: "en" },
    headers: { "X-Tenant": "t-1" },
  };
  const conversation = new AiSdkConversation(entry, "booking");
  const first = await conversation.send(turnOf("Hello"), undefined);
  await conversation.send(turnOf("Again"), first.session);
  assert.deepEqual(
    seen.map(({ url, headers }) => [url, headers["content-type"], headers["x-tenant"]]),
    [
      ["/chat/last", "application/json", "t-1"],
      ["/chat/last", "application/json", "t-1"],
    ],
  );
  const [one, two] = seen.map(({ body }) => body as { locale: string; id: string; message: { id: string } });
  assert.deepEqual(Object.keys(one!), ["locale", "id", "message"]);
  assert.equal(one!.id, first.session);
  assert.equal(two!.id, first.session);
  assert.deepEqual(two!.message, { parts: [{ type: "text", text: "Again" }], id: two!.message.id, role: "user" });
});

test("an answer that is not the UI message stream fails the turn, naming the target and the key to fix", async (t) => {
  const route = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end('{"reply":"hi"}');
  });
  t.after(() => route.close());
  const conversation = new AiSdkConversation({ kind: "ai-sdk", baseUrl: route.url }, "booking");
  await assert.rejects(conversation.send(turnOf("Hello"), undefined), {
    code: "target_invalid_answer",
    message:
      `target booking (ai-sdk): POST ${route.url}/api/chat answered 200 with content-type application/json, not the UI ` +
      'message stream (text/event-stream) useChat reads: "{\\"reply\\":\\"hi\\"}". Point targets.booking.path at the route that ' +
      "pipes toUIMessageStream to its response.",
  });
});

test("a route that does not answer within timeoutMs fails the turn, naming the target and the key to raise", async (t) => {
  const route = await listenOnLoopback(() => {});
  t.after(() => route.close());
  const conversation = new AiSdkConversation({ kind: "ai-sdk", baseUrl: route.url, timeoutMs: 100 }, "booking");
  await assert.rejects(conversation.send(turnOf("Hello"), undefined), {
    code: "target_unreachable",
    message:
      `target booking (ai-sdk): POST ${route.url}/api/chat gave no whole answer within 100 ms; the route may be stuck, ` +
      "or slower than that: raise targets.booking.timeoutMs in flowcheck.config.json if so.",
  });
});
