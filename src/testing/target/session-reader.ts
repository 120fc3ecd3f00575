import type { SessionView, SessionViewHead } from "../checks/session-view.ts";

/** Where the persisted contract reads sessions from: a store, or what a target of another kind says of its sessions. */
export interface SessionReader {
  readonly description: string;
  fetchAll(id: string): Promise<SessionView | undefined>;
  /**
   * The session without its conversation, which is all a turn's checks read; without it they
   * read the whole session, whose cost grows with the conversation.
   */
  fetchHead?(id: string): Promise<SessionViewHead | undefined>;
  /**
   * A value that changes whenever anything is committed to the store, by any writer. Around a turn
   * that expects an error, equal marks prove the store unchanged without reading the session again;
   * without it the whole session is read again and compared.
   */
  writeMark?(): string;
  /**
   * Why the sessions keep no count of turns (a LangGraph thread counts checkpoints, not turns):
   * such a reader's sessions have no `turns`, and the persisted `turns` check is skipped with this
   * reason. Unset: they keep one.
   */
  readonly turnsUnknown?: string;
  /** Why the sessions do not say which flow they run (an http target's state endpoint): the persisted `flow` check is skipped with it. */
  readonly flowUnknown?: string;
  /** Why the sessions have no step (a Mastra agent has none): the persisted `expectedActiveStep` check is skipped with it. */
  readonly stepUnknown?: string;
  /**
   * How the sessions' `steps` are keyed: by step, as our engine keeps them (unset), or by the keys
   * of a target's own state object, where a key that is missing is missing rather than an empty step.
   */
  readonly keyedBy?: "step" | "state key";
}

/** A target's sessions as the persisted contract reads them: the reader, or why there is none. */
export type TargetSessions =
  | { readonly reader: SessionReader; readonly unavailable?: undefined }
  | { readonly reader?: undefined; readonly unavailable: string };
