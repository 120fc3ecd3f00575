import type { Answer } from "../answer/read-answer.ts";
import type { CalledTool } from "../checks/called-tool.ts";
import type { Check } from "../checks/check.ts";
import type { ChatClientOptions, ChatExchange } from "../client/chat-client.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";

/** What a target made of one turn: the exchange, the answer, the session, and its own transport contract. */
export interface ConversationTurn {
  /** The turn's main request and response as on the wire, for the transcript. */
  exchange: ChatExchange;
  /** Its text, and in `json` only the claims the answer makes of the session (`claimsOnly`). */
  answer: Answer;
  /** The session (thread, conversation) the turn was played in; undefined when the answer named none. */
  session: string | undefined;
  /** The kind's transport contract: its status, a stable session id, an answer that reads. */
  checks: Check[];
  /**
   * The tools the turn called, in order, as the target's answer (its stream, its thread) reported
   * them. Undefined: this kind's answer does not report them, and `expectToolCalls` reads them from
   * the stored session, or is skipped for the conversation's `toolCallsUnknown`.
   */
  toolCalls?: CalledTool[];
}

/**
 * One conversation on a target, a turn at a time: flowcheck's `POST /ai/chat`, a LangGraph thread,
 * a team's own API. Everything after a turn (the persisted contract on the target's sessions,
 * expectations, judge, report, transcript) is the same code path whichever it is.
 */
export interface TargetConversation {
  /**
   * Plays `turn` in `session` (undefined: the conversation's first turn starts one). `key` names
   * the turn, the same each time it is sent: flowcheck's API takes it as the Idempotency-Key.
   */
  send(turn: ScenarioTurn, session: string | undefined, key: string): Promise<ConversationTurn>;
  /**
   * Why its turns' tool calls are not known (answers that do not report them): an
   * `expectToolCalls` on a turn whose answer reported none is skipped with it. Unset: a turn whose
   * answer reports none has them read from the stored session's log (our engine's).
   */
  readonly toolCallsUnknown?: string;
  /** Lets go of what the conversation holds (its connection); the target stays up. */
  close(): void;
}

/** What a conversation is opened with: the scenario's flow, and what each of the run's requests carries. */
export interface ConversationOptions extends ChatClientOptions {
  readonly flowName: string;
}

/**
 * Why a conversation's turns have no tool calls to check: its answers report none, as an http
 * entry's plain JSON answer without `answer.toolCalls` does.
 */
export const TOOL_CALLS_UNREPORTED =
  "this target's answers report no tool calls: give its entry answer.toolCalls, or a stream that carries them (ai-sdk-ui, openai-chat)";
