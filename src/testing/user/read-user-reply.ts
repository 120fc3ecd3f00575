import type { UserReply } from "../../engine/scripted-user.ts";
import { show } from "../scenario/show.ts";

/** The longest message a simulated user may send: a person in a chat writes less; a model gone astray, more. */
export const MAX_USER_MESSAGE = 2000;

const QUOTED = 200;

/**
 * The reply in what the model playing the user sent, or what is wrong with it, quoting (cut short)
 * what it sent: that problem is told to the model on its retry, and to the test author after it.
 */
export function readUserReply(content: string): { reply: UserReply } | { problem: string } {
  const sent = `it sent ${show(content, QUOTED)}`;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { problem: `the reply is not JSON; ${sent}.` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { problem: `the reply is not a JSON object; ${sent}.` };
  const { message, done, reason } = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof message !== "string") problems.push(`"message" is ${message === undefined ? "missing" : "not a string"}`);
  if (typeof done !== "boolean") problems.push(`"done" is ${done === undefined ? "missing" : "not true or false"}`);
  if (reason !== undefined && typeof reason !== "string") problems.push(`"reason" is not a string`);
  if (typeof message === "string") {
    if (done === false && message.trim() === "") problems.push(`"message" is empty while "done" is false`);
    if (message.length > MAX_USER_MESSAGE)
      problems.push(`"message" is ${message.length} characters long, over the limit of ${MAX_USER_MESSAGE}`);
  }
  if (problems.length) return { problem: `${problems.join("; ")}; ${sent}.` };
  return {
    reply: {
      message: message as string,
      done: done as boolean,
      ...(typeof reason === "string" && reason !== "" ? { reason } : {}),
    },
  };
}
