import type { StepStates } from "../../../engine/session-document.ts";
import { FlowcheckError } from "../../../errors.ts";
import type { SessionReader } from "../session-reader.ts";
import type { SessionView } from "../../checks/session-view.ts";
import { readHttpState, type StateEndpointEntry } from "./read-http-state.ts";

/**
 * An http target's state endpoint as the persisted contract reads sessions: its step, its
 * completion as the run status, its domain state by step. It says neither the flow nor a count of
 * turns, so its sessions have no `turns` and those checks are skipped, saying so.
 */
export class HttpSessions implements SessionReader {
  readonly description: string;
  readonly keyedBy = "state key";
  readonly turnsUnknown: string;
  readonly flowUnknown: string;
  readonly #entry: StateEndpointEntry;
  readonly #where: string;
  readonly #flowName: string;

  constructor(entry: StateEndpointEntry, where: string, flowName: string) {
    this.#entry = entry;
    this.#where = where;
    this.#flowName = flowName;
    this.description = `the state endpoint GET ${entry.state!.path} at ${entry.baseUrl}`;
    this.turnsUnknown = `${where}.state reads no count of turns, so the turn count is not checked`;
    this.flowUnknown = `${where}.state reads no flow name, so the stored flow is not checked`;
  }

  async fetchAll(id: string): Promise<SessionView | undefined> {
    let stored;
    try {
      stored = await readHttpState(this.#entry, id, { where: this.#where });
    } catch (error) {
      if (error instanceof FlowcheckError && (error.details as { status?: number } | undefined)?.status === 404)
        return undefined;
      throw error;
    }
    return {
      id,
      version: 0,
      flow: { name: this.#flowName, currentStep: stored.currentStep ?? "" },
      runStatus: stored.completed ? "completed" : "running",
      steps: stored.state as StepStates,
      children: [],
      createdAt: "",
      updatedAt: "",
      memory: {},
      execution: [],
    };
  }
}
