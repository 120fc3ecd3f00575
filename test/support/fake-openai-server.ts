import http from "node:http";
import type { AddressInfo } from "node:net";
import type { MemoryEntry, ModelReply, Script } from "../../src/engine/index.ts";

/** The body of a chat completions request, as the OpenAI SDK sends it. */
export interface CompletionRequest {
  model: string;
  messages: {
    role: string;
    content?: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  temperature?: number;
  response_format?: { type: string };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

/** What the fake answers: a model reply, a judge's raw text, or an HTTP error. */
export type FakeAnswer =
  | { reply: ModelReply }
  | { judge: string }
  | { status: number; body?: unknown; headers?: Record<string, string> };

export interface FakeOpenAI {
  /** e.g. `http://127.0.0.1:40000/v1`, for OPENAI_BASE_URL. */
  baseURL: string;
  requests: CompletionRequest[];
  /** Replaces how the next requests are answered (`headers` as received); return undefined to fall back to the scripts. */
  answer: (request: CompletionRequest, index: number, headers: http.IncomingHttpHeaders) => FakeAnswer | undefined;
  /** How long each answer waits before it is sent, in milliseconds (default 0), as a provider's latency. */
  delayMs: number;
  /** The most requests the server held open at once, counted from the request's arrival to its answer. */
  maxInFlight: number;
  close(): Promise<void>;
}

export const PASSING_VERDICT = JSON.stringify({
  pass: true,
  score: 0.9,
  reason: "The answer does what was expected.",
  missing: [],
  contradictions: [],
});

/** How the live model sends a hand-off: a system message after the prompt. */
const HANDOFF = /^Hand-off from (\S+): ([\s\S]*)$/;

function toMemory(messages: CompletionRequest["messages"]): MemoryEntry[] {
  return messages.slice(1).map((message): MemoryEntry => {
    const handoff = message.role === "system" ? HANDOFF.exec(message.content ?? "") : null;
    if (handoff) return { role: "handoff", from: handoff[1]!, content: handoff[2]! };
    if (message.role === "tool")
      return { role: "tool", toolCallId: message.tool_call_id ?? "", name: "", content: message.content ?? "" };
    if (message.role === "assistant") {
      const toolCalls = message.tool_calls?.map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      }));
      return toolCalls?.length
        ? { role: "assistant", content: message.content ?? "", toolCalls }
        : { role: "assistant", content: message.content ?? "" };
    }
    return { role: "user", content: message.content ?? "" };
  });
}

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

/**
 * A completion as the chunks of its stream, the way the provider streams one: the role, the text,
 * each tool call's name then its arguments, the finish reason, and the usage when it was asked for.
 */
function completionChunks(id: string, model: string, reply: ModelReply, includeUsage: boolean): unknown[] {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return [
    chunk({ role: "assistant", content: "" }),
    ...(reply.content ? [chunk({ content: reply.content })] : []),
    ...reply.toolCalls.flatMap((call, index) => [
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }),
    ]),
    chunk({}, reply.toolCalls.length ? "tool_calls" : "stop"),
    ...(includeUsage ? [{ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: USAGE }] : []),
  ];
}

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 that answers like a model would, from
 * flow scripts (the first script with an answer wins), and answers judge requests (those asking for
 * a JSON object) with a passing verdict; a request with `stream: true` gets its answer as a stream
 * of server-sent events. Tests change `answer` to make it fail in chosen ways.
 */
export async function startFakeOpenAI(scripts: readonly Script[]): Promise<FakeOpenAI> {
  const requests: CompletionRequest[] = [];
  const fake: FakeOpenAI = {
    baseURL: "",
    requests,
    answer: () => undefined,
    delayMs: 0,
    maxInFlight: 0,
    close: async () => undefined,
  };
  let inFlight = 0;
  const completion = (model: string, content: string | null, toolCalls?: ModelReply["toolCalls"]) => ({
    id: `chatcmpl-${requests.length}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls?.length ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content,
          ...(toolCalls?.length
            ? {
                tool_calls: toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: USAGE,
  });

  const server = http.createServer((req, res) => {
    inFlight += 1;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(JSON.stringify(body));
        }, fake.delayMs);
      };
      const stream = (chunks: unknown[]) => {
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
          for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          res.end("data: [DONE]\n\n");
        }, fake.delayMs);
      };
      if (req.method !== "POST" || req.url !== "/v1/chat/completions")
        return send(404, { error: { message: `no route ${req.url}` } });
      const request = JSON.parse(text) as CompletionRequest;
      const index = requests.push(request) - 1;
      let answer = fake.answer(request, index, req.headers);
      if (!answer && request.response_format?.type === "json_object") answer = { judge: PASSING_VERDICT };
      if (!answer) {
        const system = request.messages[0]?.content ?? "";
        const messages = toMemory(request.messages);
        const tools = (request.tools ?? []).map((tool) => ({
          name: tool.function.name,
          description: tool.function.description,
          parameters: tool.function.parameters,
        }));
        for (const script of scripts) {
          const reply = script({
            system,
            messages,
            tools,
            latest: messages.at(-1),
            context: { flow: "?", rootFlow: "?", step: "?" },
          });
          if (reply) {
            answer = { reply };
            break;
          }
        }
      }
      if (!answer)
        return send(400, {
          error: { message: `the fake model has no answer for: ${(request.messages[0]?.content ?? "").slice(0, 80)}` },
        });
      if ("status" in answer)
        return send(answer.status, answer.body ?? { error: { message: "fake failure" } }, answer.headers);
      const reply = "judge" in answer ? { content: answer.judge, toolCalls: [] } : answer.reply;
      if (request.stream)
        return stream(
          completionChunks(`chatcmpl-${index}`, request.model, reply, request.stream_options?.include_usage === true),
        );
      if ("judge" in answer) return send(200, completion(request.model, answer.judge));
      return send(200, completion(request.model, answer.reply.content || null, answer.reply.toolCalls));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
