// The seam's own cost per scripted model call, measured in this process: the seam's server
// (startSeamServer) answering through a ledger (SeamConversations) whose conversation's source is a
// script (scriptedSource), called by a keep-alive fetch as an app's SDK calls its provider. A call's
// time runs from the request sent to the answer's last byte read, so it holds everything a call at
// the seam costs: the HTTP exchange on loopback (both ends, in this process), reading the request,
// crediting it to the turn in flight, the script's answer, and writing the reply (as JSON, or as
// server-sent events when streamed). Nothing is subtracted. Beside it, timed in turn with it, a bare
// round trip of the same client to a node:http server that reads the same requests and answers a
// fixed body of the same size: what any HTTP call on loopback costs here, for scale.
//
// Each turn plays an agent's loop as the stacks send it: a call the script answers with a tool call,
// then the same request with the tool's output, answered with text. The turns take the four kinds of
// call in turn (Chat Completions and Responses, each streamed and not), in conversations of ten turns
// whose requests carry the conversation so far, as an app's do.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { scriptedText, scriptedToolCalls } from "../../src/engine/scripted-model.ts";
import { SeamConversations } from "../../src/testing/seam/seam-conversations.ts";
import type { SeamScript } from "../../src/testing/seam/seam-request.ts";
import { startSeamServer } from "../../src/testing/seam/seam-server.ts";
import { scriptedSource } from "../../src/testing/seam/scripted-source.ts";

const TURNS_PER_CONVERSATION = 10;
/** Calls before V8 has compiled the seam's hot code are not counted. */
const WARMUP_CONVERSATIONS = 6;
/** 400 counted calls: two a turn. */
const CONVERSATIONS = 20;

const KINDS = ["chat", "chat streamed", "responses", "responses streamed"] as const;
type Kind = (typeof KINDS)[number];

export interface SeamCallsResult {
  calls: number;
  /** Medians over the counted calls, in ms. */
  millisPerCall: number;
  byKind: Record<Kind, number>;
  /** The median bare round trip, in ms. */
  bareMillisPerCall: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The booking desk's model, as small as a script gets: a tool call for a question, a sentence for a tool's output. */
const script: SeamScript = ({ latest }) => {
  if (latest?.role === "tool") return scriptedText(`Found it with ${latest.name}. Anything else?`);
  return scriptedToolCalls([{ name: "findRoom", args: { city: "Lisbon", nights: 2 } }]);
};

const TOOL_PARAMETERS = {
  type: "object",
  properties: { city: { type: "string" }, nights: { type: "integer" } },
  required: ["city", "nights"],
  additionalProperties: false,
};
const SYSTEM = "You book hotel rooms.";
const OUTPUT = '{"hotel":"Hotel Sol","city":"Lisbon","nights":2,"price":240}';

/** One finished turn of the conversation so far, as both wire formats need it. */
interface PastTurn {
  input: string;
  callId: string;
  answer: string;
}

function chatBody(past: PastTurn[], input: string, toolCallId: string | undefined, stream: boolean) {
  const exchange = (turn: { input: string; callId: string }) => [
    { role: "user", content: turn.input },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: turn.callId,
          type: "function",
          function: { name: "findRoom", arguments: '{"city":"Lisbon","nights":2}' },
        },
      ],
    },
    { role: "tool", tool_call_id: turn.callId, content: OUTPUT },
  ];
  const messages = [
    { role: "system", content: SYSTEM },
    ...past.flatMap((turn) => [...exchange(turn), { role: "assistant", content: turn.answer }]),
    ...(toolCallId ? exchange({ input, callId: toolCallId }) : [{ role: "user", content: input }]),
  ];
  const tools = [
    { type: "function", function: { name: "findRoom", description: "Find a room", parameters: TOOL_PARAMETERS } },
  ];
  return {
    model: "gpt-4o-mini",
    messages,
    tools,
    tool_choice: "auto",
    ...(stream ? { stream, stream_options: { include_usage: true } } : {}),
  };
}

function responsesBody(past: PastTurn[], input: string, toolCallId: string | undefined, stream: boolean) {
  const exchange = (turn: { input: string; callId: string }) => [
    { role: "user", content: [{ type: "input_text", text: turn.input }] },
    { type: "function_call", call_id: turn.callId, name: "findRoom", arguments: '{"city":"Lisbon","nights":2}' },
    { type: "function_call_output", call_id: turn.callId, output: OUTPUT },
  ];
  const items = [
    { role: "system", content: SYSTEM },
    ...past.flatMap((turn) => [
      ...exchange(turn),
      { role: "assistant", content: [{ type: "output_text", text: turn.answer }] },
    ]),
    ...(toolCallId
      ? exchange({ input, callId: toolCallId })
      : [{ role: "user", content: [{ type: "input_text", text: input }] }]),
  ];
  const tools = [
    { type: "function", name: "findRoom", description: "Find a room", parameters: TOOL_PARAMETERS, strict: false },
  ];
  return { model: "gpt-4o-mini", input: items, tools, tool_choice: "auto", ...(stream ? { stream } : {}) };
}

/** The tool call's id and the text answer, read from a reply of either kind, whole or streamed. */
function readAnswer(text: string): { callId?: string; answer?: string } {
  const callId = /"(?:call_id|id)":"(call_[^"]+)"/.exec(text)?.[1];
  const answer = /Found it[^"]*Anything else\?/.exec(text)?.[0];
  return { ...(callId ? { callId } : {}), ...(answer ? { answer } : {}) };
}

/** Makes one call and reads its answer to the end; fails on anything but a 200. */
async function call(url: string, body: unknown, times: number[] | undefined, bare?: Bare): Promise<string> {
  if (bare) await call(bare.url, body, bare.times);
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer placeholder" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  times?.push(performance.now() - started);
  if (response.status !== 200) throw new Error(`bench: the seam answered ${response.status}: ${text.slice(0, 500)}`);
  return text;
}

/** One conversation of ten turns, each turn's two calls timed into `times` by kind (none while warming up). */
async function conversation(
  ledger: SeamConversations,
  baseUrl: string,
  number: number,
  times: Record<Kind, number[]> | undefined,
  bare: Bare | undefined,
): Promise<void> {
  const seam = ledger.open({
    target: "bench",
    flow: "booking",
    label: `booking ${number}`,
    source: scriptedSource(script),
  });
  const past: PastTurn[] = [];
  try {
    for (let index = 0; index < TURNS_PER_CONVERSATION; index++) {
      const kind = KINDS[index % KINDS.length]!;
      const input = `A room in Lisbon for 2 nights, conversation ${number} turn ${index + 1}`;
      await seam.beginTurn({ number: index + 1, label: `turn ${index + 1}`, input });
      const streamed = kind.endsWith("streamed");
      const [url, body] = kind.startsWith("chat")
        ? [`${baseUrl}/chat/completions`, chatBody]
        : [`${baseUrl}/responses`, responsesBody];
      const { callId } = readAnswer(await call(url, body(past, input, undefined, streamed), times?.[kind], bare));
      if (!callId) throw new Error(`bench: the seam's ${kind} reply named no tool call`);
      const { answer } = readAnswer(await call(url, body(past, input, callId, streamed), times?.[kind], bare));
      if (!answer) throw new Error(`bench: the seam's ${kind} reply to the tool's output had no answer`);
      const { calls, problems } = seam.endTurn();
      if (calls !== 2 || problems.length)
        throw new Error(`bench: seam turn ${index + 1}: ${calls} calls; ${problems.join("; ")}`);
      past.push({ input, callId, answer });
    }
  } finally {
    seam.close();
  }
}

/** The bare server's address and its round trips' times. */
interface Bare {
  url: string;
  times: number[];
}

/** A bare node:http server: it reads each request and parses it, then answers `size` bytes of JSON. */
async function startBare(size: number): Promise<{ url: string; close(): Promise<void> }> {
  const answer = JSON.stringify({ id: "bare", text: "x".repeat(Math.max(0, size - 25)) });
  const server = http.createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      JSON.parse(text);
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
      response.end(answer);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A seam reply's typical size, for the bare server's answer: a streamed Responses reply is the longest. */
const BARE_ANSWER_BYTES = 1500;

export async function measureSeamCalls(): Promise<SeamCallsResult> {
  const ledger = new SeamConversations();
  const server = await startSeamServer(ledger);
  const bareServer = await startBare(BARE_ANSWER_BYTES);
  try {
    for (let number = 1; number <= WARMUP_CONVERSATIONS; number++)
      await conversation(ledger, server.baseUrl, number, undefined, { url: bareServer.url, times: [] });
    const times = Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    const bare = { url: bareServer.url, times: [] as number[] };
    for (let number = 1; number <= CONVERSATIONS; number++)
      await conversation(ledger, server.baseUrl, WARMUP_CONVERSATIONS + number, times, bare);
    const all = KINDS.flatMap((kind) => times[kind]);
    return {
      calls: all.length,
      millisPerCall: median(all),
      byKind: Object.fromEntries(KINDS.map((kind) => [kind, median(times[kind])])) as Record<Kind, number>,
      bareMillisPerCall: median(bare.times),
    };
  } finally {
    await bareServer.close();
    await server.close();
  }
}
