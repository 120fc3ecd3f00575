import type { StartedAppKeys } from "../start/start-entry.ts";

/** A `"kind": "mastra"` target of flowcheck.config.json: a Mastra server's agent API, the scenario's flowName the agent's id. */
export interface MastraTargetEntry extends StartedAppKeys {
  kind: "mastra";
  /** The server, without `/api` (e.g. `http://127.0.0.1:4111`). */
  baseUrl: string;
  /** Which route plays a turn: `/stream` (server-sent chunks, the default) or `/generate` (one JSON answer). */
  mode?: "stream" | "generate";
  /** The memory resource every conversation's thread belongs to (default `flowcheck`). */
  resource?: string;
  /** Per request; default 30000. */
  timeoutMs?: number;
  /** Already resolved by the config loader. */
  headers?: Record<string, string>;
  /**
   * A JSON Pointer into the thread's working memory (its JSON, as a schema'd working memory keeps
   * it): the value there is the state `expectState` and `finalState` match. Absent: no state is read.
   */
  workingMemory?: string;
}

/** The resource a conversation's thread is made under when the entry names none. */
export const DEFAULT_RESOURCE = "flowcheck";
