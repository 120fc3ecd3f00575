import { FlowcheckError } from "../../../errors.ts";
import { closestName } from "../../scenario/closest-name.ts";
import { inputText, type TurnInput } from "../../scenario/turn-input.ts";

/** One message of a conversation, in OpenAI's `messages` shape. */
export interface ConversationMessage {
  role: "user" | "assistant";
  content: string;
}

/** What a template's placeholders are filled with, for one turn. */
export interface TemplateValues {
  /**
   * The turn's input: a message (the loader lets only text through to an http target), or any JSON
   * value; undefined outside a turn (a state path), where `{{input}}` is "".
   */
  input: TurnInput | undefined;
  /** The session the server assigned (or the caller made); undefined before there is one. */
  session: string | undefined;
  /** The conversation before this turn; `{{messages}}` adds this turn's input to it. */
  messages: readonly ConversationMessage[];
}

const PLACEHOLDERS = ["input", "session", "messages"] as const;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

function unknownPlaceholder(name: string, where: string): FlowcheckError {
  const guess = closestName(name, PLACEHOLDERS);
  return new FlowcheckError(
    "config_invalid",
    `flowcheck.config.json: ${where} holds {{${name}}}, which is not a placeholder` +
      `${guess ? `; did you mean {{${guess}}}?` : "."} The placeholders are {{input}}, {{session}} and {{messages}} ` +
      "(an environment variable is ${NAME}).",
  );
}

function conversationOf(values: TemplateValues): ConversationMessage[] {
  return [
    ...values.messages.map(({ role, content }) => ({ role, content })),
    { role: "user", content: inputText(values.input ?? "") },
  ];
}

function renderString(text: string, values: TemplateValues, where: string): unknown {
  const whole = WHOLE.exec(text)?.[1];
  if (whole === "input") return structuredClone(values.input);
  if (whole === "session") return values.session ?? null;
  if (whole === "messages") return conversationOf(values);
  return text.replace(PLACEHOLDER, (_, name: string) => {
    if (name === "input") return inputText(values.input ?? "");
    if (name === "session") return values.session ?? "";
    if (name === "messages") {
      throw new FlowcheckError(
        "config_invalid",
        `flowcheck.config.json: ${where} holds {{messages}} inside a longer string; ` +
          'write "{{messages}}" as the whole value, where it becomes the conversation as a JSON array.',
      );
    }
    throw unknownPlaceholder(name, where);
  });
}

/**
 * A deep copy of a request body template with its placeholders filled. In a string, `{{input}}` is
 * the input (a non-string as its JSON) and `{{session}}` the session id ("" before there is one); a
 * string that is exactly `"{{input}}"` becomes the input as it is, exactly `"{{session}}"` the id or
 * null, and exactly `"{{messages}}"` the conversation so far, this turn's input last, for an endpoint
 * that keeps no history. `where` is the template's JSON path in flowcheck.config.json, for errors.
 *
 * @example
 * renderTemplate({ q: "{{input}}", id: "{{session}}" }, { input: "hi", session: undefined, messages: [] }, "turn.body")
 * // { q: "hi", id: null }
 */
export function renderTemplate(template: unknown, values: TemplateValues, where: string): unknown {
  if (typeof template === "string") return renderString(template, values, where);
  if (Array.isArray(template)) return template.map((item, index) => renderTemplate(item, values, `${where}[${index}]`));
  if (template !== null && typeof template === "object") {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, renderTemplate(value, values, `${where}.${key}`)]),
    );
  }
  return template;
}

/**
 * A URL path template with `{{session}}` and `{{input}}` filled, each URL-encoded (the session ""
 * before there is one), as `renderTemplate` fills a string; `{{messages}}` has no place in a path.
 *
 * @example renderPath("/sessions/{{session}}/state", { input: "", session: "a/b", messages: [] }, "state.path")
 * // "/sessions/a%2Fb/state"
 */
export function renderPath(template: string, values: TemplateValues, where: string): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (name === "input") return encodeURIComponent(inputText(values.input ?? ""));
    if (name === "session") return encodeURIComponent(values.session ?? "");
    if (name === "messages") {
      throw new FlowcheckError(
        "config_invalid",
        `flowcheck.config.json: ${where} holds {{messages}}, which has no place in a URL path; ` +
          'put "{{messages}}" in turn.body instead.',
      );
    }
    throw unknownPlaceholder(name, where);
  });
}
