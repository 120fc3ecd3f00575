import { FlowcheckError } from "../../errors.ts";
import { kindOf } from "./describe-schema-error.ts";
import { show } from "./show.ts";

/** A value as JSON.parse gives it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A turn's `input`: the user's message (a string), or, for a LangGraph target, any JSON value that
 * resumes the thread's pending interrupt (`command.resume`).
 */
export type TurnInput = JsonValue;

/**
 * The input where a text is needed (a transcript, the report, a judge's prompt, a template): a
 * message as it is, any other value as its JSON.
 *
 * @example inputText({ confirm: true }) // '{"confirm":true}'
 */
export function inputText(input: TurnInput): string {
  return typeof input === "string" ? input : JSON.stringify(input);
}

/** Why `of`, a flow or target of a kind other than LangGraph, takes only text: for `notText`. */
export function textOnlyReason(kind: "flowcheck" | "http" | "ai-sdk" | "mastra", of: string): string {
  if (kind === "flowcheck") return `${of} is a flowcheck flow, which takes a text message`;
  if (kind === "mastra") return `${of} is a Mastra agent, which takes the user's message as text`;
  if (kind === "ai-sdk")
    return `${of} is an AI SDK chat route, whose user messages carry the user's message as a text part`;
  return `${of} is an http target, whose {{input}} and {{messages}} carry the user's message as text`;
}

/**
 * Why a target that takes only text refuses `input` (`why` says which target, and what it takes),
 * as the loader and the targets word it.
 *
 * @example notText({ a: 1 }, textOnlyReason("flowcheck", "BasicFlow"))
 */
export function notText(input: TurnInput, why: string): string {
  return (
    `${show(input)} is ${kindOf(input)}, but ${why}; ` +
    "only a LangGraph target resumes an interrupt with a JSON value. Write the input as a string."
  );
}

/**
 * The input as the user's message, for a target that takes only text. The loader refuses any
 * other value for such a target; one that reaches it anyway (a scenario not read by the loader)
 * is `scenario_invalid` here, before anything is sent.
 */
export function messageOf(input: TurnInput, why: string): string {
  if (typeof input === "string") return input;
  throw new FlowcheckError("scenario_invalid", `The turn's input ${notText(input, why)}`);
}
