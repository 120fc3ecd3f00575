import { FlowcheckError } from "../../../errors.ts";
import type { CalledTool } from "../../checks/called-tool.ts";
import { toolCallArgs, toolCallOutput } from "../../checks/tool-call-values.ts";
import { show } from "../../scenario/show.ts";
import { readPointer } from "../json-pointer.ts";
import { QUOTED_BODY } from "../request-target.ts";
import type { HttpAnswerShape, HttpToolCallPointers } from "./http-target-entry.ts";
import { pointerArray, pointerString, pointerValue } from "./pointer-value.ts";

type Shape = NonNullable<HttpAnswerShape["toolCalls"]>;

/** A chat completion message's tool call: a function's, or a custom tool's (its input free text). */
interface CompletionToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
  custom?: { name?: unknown; input?: unknown };
}

function openAiProblem(but: string, at: string, found: string, body: unknown): FlowcheckError {
  return new FlowcheckError(
    "target_invalid_answer",
    `${but} ${at}answer.toolCalls is "openai", and ${found}, in the body ${show(body, QUOTED_BODY)}. ` +
      `Give ${at}answer.toolCalls pointers to where the answer lists its calls ` +
      '({ "path": "/tool_calls", "name": "/name", "args": "/arguments", "output": "/output" }), or remove it.',
  );
}

/** The calls of a chat completion's `choices[0].message.tool_calls`: none when it has none, as OpenAI leaves the key out. */
function openAiToolCalls(body: unknown, but: string, at: string): CalledTool[] {
  const message = readPointer(body, "/choices/0/message");
  if (!message.found || message.value === null || typeof message.value !== "object")
    throw openAiProblem(but, at, "there is no chat completion message at /choices/0/message", body);
  const calls = (message.value as { tool_calls?: unknown }).tool_calls;
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls))
    throw openAiProblem(but, at, `/choices/0/message/tool_calls is ${show(calls)}, not an array`, body);
  return (calls as CompletionToolCall[]).map((call, index) => {
    const tool = call?.function ?? call?.custom;
    if (typeof tool?.name !== "string" || tool.name === "")
      throw openAiProblem(but, at, `/choices/0/message/tool_calls/${index} names no function`, body);
    const args = call.function ? call.function.arguments : call.custom?.input;
    return {
      name: tool.name,
      args: toolCallArgs(args),
      status: "pending",
      ...(typeof call.id === "string" ? { id: call.id } : {}),
    };
  });
}

/** The calls in the array `pointers.path` finds, each item read by the other pointers. */
function pointedToolCalls(body: unknown, pointers: HttpToolCallPointers, but: string, at: string): CalledTool[] {
  const key = `${at}answer.toolCalls`;
  const list = pointerArray(
    body,
    pointers.path,
    `${but} ${key}.path (the array of the turn's tool calls, [] when it called none)`,
  );
  return list.map((item, index) => {
    const of = `of the call at ${pointers.path}/${index}`;
    const name = pointerString(item, pointers.name, `${but} ${key}.name (the name ${of})`);
    const args =
      pointers.args === undefined
        ? undefined
        : pointerValue(item, pointers.args, `${but} ${key}.args (the arguments ${of})`);
    const output = pointers.output === undefined ? { found: false as const } : readPointer(item, pointers.output);
    return {
      name,
      args: toolCallArgs(args),
      ...(output.found ? { output: toolCallOutput(output.value), status: "returned" } : { status: "pending" }),
    } satisfies CalledTool;
  });
}

/**
 * The tools an answer says its turn called, read as the entry's `answer.toolCalls` says: `"openai"`,
 * a chat completion's `choices[0].message.tool_calls` (arguments parsed from JSON; a completion
 * carries no output, so none has completed); or pointers, `path` to the array of calls and the
 * others into each item (`args` and `output` parsed when JSON text; a call whose `output` finds
 * nothing has not completed). Anything else is `target_invalid_answer`: `but` names the request and
 * its status (`POST http://…/chat answered 200, but`), `at` the entry's key (`targets.shop.`).
 */
export function answerToolCalls(body: unknown, shape: Shape, but: string, at: string): CalledTool[] {
  return shape === "openai" ? openAiToolCalls(body, but, at) : pointedToolCalls(body, shape, but, at);
}
