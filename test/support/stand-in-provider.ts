import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelReply } from "../../src/engine/chat-model.ts";

/** One request the stand-in got: its path, the key it was sent, and its body. */
export interface StandInRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface StandInAnswer {
  status: number;
  body: unknown;
}

export interface StandInProvider {
  /** e.g. `http://127.0.0.1:40000/v1`, for OPENAI_BASE_URL. */
  baseURL: string;
  requests: StandInRequest[];
  /** How each request is answered; by default a text answer of the API asked. */
  answer: (request: StandInRequest) => StandInAnswer;
  close(): Promise<void>;
}

const USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

/** A non-streamed Chat Completions answer with `reply`, as the provider sends it. */
export function chatCompletion(reply: ModelReply): unknown {
  const calls = reply.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1764870000,
    model: "gpt-4o-mini",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.content || null, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: USAGE,
  };
}

/** A non-streamed Responses API answer with `reply`: its text as a message item, each tool call a function_call. */
export function responsesAnswer(reply: ModelReply): unknown {
  const text = reply.content
    ? [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: reply.content, annotations: [] }],
        },
      ]
    : [];
  const calls = reply.toolCalls.map((call, index) => ({
    type: "function_call",
    id: `fc_${index + 1}`,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: "completed",
  }));
  return {
    id: "resp_1",
    object: "response",
    created_at: 1764870000,
    model: "gpt-4o-mini",
    status: "completed",
    output: [{ type: "reasoning", id: "rs_1", summary: [] }, ...text, ...calls],
    usage: { input_tokens: 30, output_tokens: 7, total_tokens: 37 },
  };
}

/**
 * An OpenAI-compatible provider on 127.0.0.1, standing in for the real one: it serves Chat
 * Completions and the Responses API (non-streamed), keeps every request with the key it came with,
 * and answers as `answer` says.
 */
export async function startStandInProvider(): Promise<StandInProvider> {
  const provider: StandInProvider = {
    baseURL: "",
    requests: [],
    answer: (request) => ({
      status: 200,
      body:
        request.path === "/v1/chat/completions"
          ? chatCompletion({ content: "It is sunny in Paris.", toolCalls: [] })
          : responsesAnswer({ content: "It is sunny in Paris.", toolCalls: [] }),
    }),
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const request = { path: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(text) };
    provider.requests.push(request);
    const known = req.method === "POST" && ["/v1/chat/completions", "/v1/responses"].includes(request.path);
    const { status, body } = known
      ? provider.answer(request)
      : { status: 404, body: { error: { message: `no route ${req.url}` } } };
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  provider.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  provider.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return provider;
}
