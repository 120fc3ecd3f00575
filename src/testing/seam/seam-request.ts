import type { ModelReply, ToolDefinition } from "../../engine/chat-model.ts";
import type { MemoryEntry } from "../../engine/session-document.ts";

/** Which OpenAI API the app called: Chat Completions or the Responses API. */
export type SeamApi = "chat" | "responses";

/**
 * One message of what the app sent its model, in order: the user's, the model's earlier answers
 * with the tool calls they asked for, and the tools' results the app sent back. The shapes are
 * our engine's memory entries, so a script reads the same whichever side of the seam it answers.
 */
export type SeamMessage = Exclude<MemoryEntry, { role: "handoff" }>;

/** Who asked: the target the app is, the scenario's flow, the model the app named, and the API it used. */
export interface SeamContext {
  readonly target: string;
  readonly flow: string;
  readonly model: string;
  readonly api: SeamApi;
}

/**
 * A model call of a team's app as a script reads it, whichever API and SDK made it: the system
 * and developer messages as one text, the rest of the conversation in order, and the tools the
 * app offered.
 */
export interface SeamRequest {
  /** The system and developer messages (Responses: `instructions` first), joined by a blank line. */
  readonly system: string;
  readonly messages: readonly SeamMessage[];
  /** The last message: the user's input, or a tool's result the app sent back. */
  readonly latest: SeamMessage | undefined;
  readonly tools: readonly ToolDefinition[];
  readonly context: SeamContext;
}

/**
 * Answers a model call of a team's app with `scriptedText` or `scriptedToolCalls`, or returns
 * undefined when it has no answer: that fails the turn, quoting the system prompt and the latest
 * message. A scripts module's default export.
 *
 * @example
 * const desk: SeamScript = ({ latest }) =>
 *   latest?.role === "user" ? scriptedToolCalls([{ name: "findRoom", args: { nights: 2 } }]) : scriptedText("Booked.");
 * export default desk;
 */
export type SeamScript = (request: SeamRequest) => ModelReply | undefined;
