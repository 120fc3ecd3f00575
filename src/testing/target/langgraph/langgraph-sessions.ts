import type { StepStates } from "../../../engine/session-document.ts";
import { FlowcheckError } from "../../../errors.ts";
import type { SessionReader } from "../session-reader.ts";
import type { SessionView } from "../../checks/session-view.ts";
import type { LanggraphClient } from "./langgraph-client.ts";
import { langgraphTurnView, type LanggraphGraphEntry } from "./langgraph-turn-view.ts";

const TURNS_UNKNOWN =
  "a LangGraph thread keeps checkpoints, not turns (a resumed interrupt adds no message), so the turn count is not checked";

/**
 * A LangGraph server's threads as the persisted contract reads sessions: `GET /threads/{id}/state`
 * seen through `langgraphTurnView`, its `values` as the session's state (so `expectState` matches
 * them key by key), completed as the run status, and the graph it ran as the flow; no count of
 * turns, which a thread does not keep. A thread that has
 * ended waits at no node: its step is the one it ran last, from its history.
 */
export class LanggraphSessions implements SessionReader {
  readonly description: string;
  readonly keyedBy = "state key";
  readonly turnsUnknown = TURNS_UNKNOWN;
  readonly #client: LanggraphClient;
  readonly #graphId: string;
  readonly #pointers: LanggraphGraphEntry | undefined;

  constructor(client: LanggraphClient, baseUrl: string, graphId: string, pointers: LanggraphGraphEntry | undefined) {
    this.#client = client;
    this.#graphId = graphId;
    this.#pointers = pointers;
    this.description = `the LangGraph server's threads at ${baseUrl}`;
  }

  async fetchAll(id: string): Promise<SessionView | undefined> {
    let state;
    try {
      state = await this.#client.threadState(id);
    } catch (error) {
      if (error instanceof FlowcheckError && (error.details as { status?: number } | undefined)?.status === 404)
        return undefined;
      throw error;
    }
    const view = langgraphTurnView(state, this.#pointers);
    const metadata = (state["metadata"] ?? {}) as Record<string, unknown>;
    const graph = typeof metadata["graph_id"] === "string" ? metadata["graph_id"] : this.#graphId;
    const at = typeof state["created_at"] === "string" ? state["created_at"] : "";
    return {
      id,
      version: 0,
      flow: { name: graph, currentStep: view.currentStep ?? (await this.#lastStep(id)) },
      runStatus: view.completed ? "completed" : "running",
      // The graph's state is not kept by step: each key is matched as a step's state would be.
      steps: view.state as StepStates,
      children: [],
      createdAt: at,
      updatedAt: at,
      memory: {},
      execution: [],
    };
  }

  /**
   * A graph that keeps its step in its state names none when that key is unset; one read by its
   * nodes names, once ended, the node it was at before its last run: its previous checkpoint's next.
   */
  async #lastStep(id: string): Promise<string> {
    if (this.#pointers?.step !== undefined) return "";
    const [, previous] = await this.#client.threadHistory(id, 2);
    return previous?.next[0] ?? "";
  }
}
