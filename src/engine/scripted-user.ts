/**
 * How a simulated user behaves: `cooperative` answers what it is asked; `terse` answers in
 * fragments; `changes-mind` changes one of its answers later on; `off-topic` wanders away from the
 * task before coming back; `rule-bender` tries to talk the assistant out of its rules.
 */
export type UserStyle = "cooperative" | "terse" | "changes-mind" | "off-topic" | "rule-bender";

/** Who a simulated user is and what it wants: a scenario's `user`, its defaults filled in. */
export interface UserProfile {
  persona: string;
  goal: string;
  /** What the user knows and may tell (a name, dates, a card); nothing else is theirs to say. */
  facts: Readonly<Record<string, unknown>>;
  style: UserStyle;
  /** How many messages the simulated user may write before the conversation ends. */
  maxTurns: number;
}

/** One message of the conversation as the user saw it. */
export interface UserMessage {
  role: "user" | "assistant";
  content: string;
}

/** What a simulated user is asked for its next message. */
export interface UserTurnRequest {
  user: UserProfile;
  /** The conversation so far, oldest first: the opening turns too. */
  conversation: readonly UserMessage[];
  /** 1-based: the number of the simulated message asked for. */
  turn: number;
}

/**
 * The user's next message, or `done` when it stops: the goal is reached, or it cannot be. A done
 * reply's message is not sent; `reason` says why it stopped (or, optionally, why it said what it did).
 */
export interface UserReply {
  message: string;
  done: boolean;
  reason?: string;
}

/**
 * The scripted user of a flow, for the scripted mode: given the scenario's user and the
 * conversation so far, what that persona would say next; undefined when it has no answer, which
 * fails the conversation loudly, as an unmatched model script does.
 */
export type ScriptedUser = (request: UserTurnRequest) => UserReply | undefined;
