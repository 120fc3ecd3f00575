import type http from "node:http";
import type { HttpAnswerShape, HttpTargetEntry } from "../../src/testing/target/http/http-target-entry.ts";
import { CONTACT_START, CONTACT_STEPS, contactTurn, type ContactCall, type ContactTurn } from "./contact-flow.ts";
import { bodyOf, jsonOrUndefined, listenOnLoopback, type LoopbackServer } from "./loopback-server.ts";
import { dataEvent, wordsOf } from "./stream-pieces.ts";

/** What an OpenAI-compatible client sends to `POST /v1/chat/completions`. */
interface CompletionRequest {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
}

interface Message {
  role: string;
  content: string;
}

export interface StatelessChatServer extends LoopbackServer {
  /** The parsed body of every completion request, in order. */
  requests: CompletionRequest[];
}

const CREATED = 1_767_225_600;

function isMessage(value: unknown): value is Message {
  const message = value as Partial<Message> | null;
  return typeof message?.role === "string" && typeof message.content === "string";
}

/**
 * Where the history leaves the contact flow, replayed from its first user message; undefined with
 * why when an assistant message is not what this server said at that point (a client that sends
 * the history wrong), or when the last message is not the user's.
 */
function replay(messages: Message[]): ContactTurn | { problem: string } {
  let turn: ContactTurn | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role === "system") continue;
    if (message.role === "user") turn = contactTurn(turn?.progress ?? CONTACT_START, message.content);
    else if (message.role !== "assistant" || message.content !== turn?.reply) {
      return {
        problem: `messages[${index}] is ${JSON.stringify(message)}; expected the assistant's ${JSON.stringify(turn?.reply)}`,
      };
    }
  }
  if (messages.at(-1)?.role !== "user" || !turn) return { problem: "the last message is not the user's" };
  return turn;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A call as a chat completion's message holds it: the arguments as JSON text. */
function toolCall(call: ContactCall, index: number, n: number) {
  const id = `call_${n}_${index}`;
  return { id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

/**
 * A call's chunks as OpenAI streams them: the first names it (id, type, name, no arguments yet),
 * the next two carry its arguments' JSON text in halves, by the call's index alone.
 */
function toolCallDeltas(call: ContactCall, index: number, n: number): object[] {
  const { id, type, function: fn } = toolCall(call, index, n);
  const half = Math.ceil(fn.arguments.length / 2);
  return [
    { index, id, type, function: { name: fn.name, arguments: "" } },
    { index, function: { arguments: fn.arguments.slice(0, half) } },
    { index, function: { arguments: fn.arguments.slice(half) } },
  ];
}

function answer(res: http.ServerResponse, request: CompletionRequest, turn: ContactTurn, n: number): void {
  const head = { id: `chatcmpl-${n}`, created: CREATED, model: request.model };
  const flow = { step: turn.progress.step, completed: turn.progress.done, state: turn.progress.state };
  const finish = turn.calls.length ? "tool_calls" : "stop";
  if (request.stream !== true) {
    const calls = turn.calls.map((call, index) => toolCall(call, index, n));
    json(res, 200, {
      ...head,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: turn.reply, ...(calls.length ? { tool_calls: calls } : {}) },
          finish_reason: finish,
        },
      ],
      flow,
      tools: turn.calls.map(({ name, args, output }) => ({
        name,
        arguments: JSON.stringify(args),
        output: JSON.stringify(output),
      })),
    });
    return;
  }
  const chunk = (delta: object, finish: string | null, extra = {}) =>
    dataEvent({
      ...head,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    [
      chunk({ role: "assistant", content: "" }, null),
      ...turn.calls.flatMap((call, index) =>
        toolCallDeltas(call, index, n).map((delta) => chunk({ tool_calls: [delta] }, null)),
      ),
      ...wordsOf(turn.reply).map((word) => chunk({ content: word }, null)),
      chunk({}, finish, { flow }),
      dataEvent("[DONE]"),
    ].join(""),
  );
}

/**
 * An OpenAI-compatible `POST /v1/chat/completions` that keeps nothing: each request carries the
 * whole history in `messages`, from which it derives the contact flow's step. It answers a chat
 * completion with the flow's `{ step, completed, state }` under `flow`, the tools the turn called
 * in its message's `tool_calls` and, with what each returned, under `tools` (`{ name, arguments,
 * output }`, both JSON text); or with `stream: true` its chunks (the calls' deltas, then the
 * text's), `flow` on the last, then `data: [DONE]`. A history whose assistant messages are not what
 * it said is a 400.
 */
export async function startStatelessChatServer(): Promise<StatelessChatServer> {
  const requests: CompletionRequest[] = [];
  const server = await listenOnLoopback(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return json(res, 404, { error: { message: "no such route" } });
    const request = (jsonOrUndefined(await bodyOf(req)) ?? {}) as CompletionRequest;
    requests.push(request);
    const messages = request.messages;
    if (!Array.isArray(messages) || !messages.every(isMessage)) {
      return json(res, 400, { error: { message: "messages must be an array of { role, content } strings" } });
    }
    const turn = replay(messages);
    if ("problem" in turn) return json(res, 400, { error: { message: turn.problem } });
    answer(res, request, turn, requests.length);
  });
  return { ...server, requests };
}

/**
 * The http target entry that plays this server: the history in `messages`, the step under `/flow`;
 * `toolCalls` reads the tools each JSON answer called.
 */
export function statelessChatEntry(
  baseUrl: string,
  options: { stream?: boolean; toolCalls?: HttpAnswerShape["toolCalls"] } = {},
): HttpTargetEntry {
  return {
    kind: "http",
    baseUrl,
    turn: {
      path: "/v1/chat/completions",
      body: { model: "contact-1", messages: "{{messages}}", ...(options.stream ? { stream: true } : {}) },
    },
    answer: {
      ...(options.stream ? { stream: "openai-chat" } : { text: "/choices/0/message/content" }),
      step: "/flow/step",
      completed: "/flow/completed",
      ...(options.toolCalls ? { toolCalls: options.toolCalls } : {}),
    },
    flows: { ContactFlow: { steps: [...CONTACT_STEPS] } },
  };
}
