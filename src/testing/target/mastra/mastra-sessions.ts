import type { StepStates } from "../../../engine/session-document.ts";
import { FlowcheckError } from "../../../errors.ts";
import type { SessionView } from "../../checks/session-view.ts";
import { show } from "../../scenario/show.ts";
import { readPointer } from "../json-pointer.ts";
import type { SessionReader } from "../session-reader.ts";
import type { MastraClient } from "./mastra-client.ts";

/**
 * A Mastra agent's memory threads as the persisted contract reads sessions: a thread is there once
 * its messages are, its turns are its user messages, and its state is the value the entry's
 * `workingMemory` pointer finds in the thread's working memory (an empty state without one). An
 * agent has no steps and its threads never end, so the step check is skipped and the run status
 * is always running; the thread does not say which agent wrote it.
 */
export class MastraSessions implements SessionReader {
  readonly description: string;
  readonly keyedBy = "state key";
  readonly flowUnknown: string;
  readonly stepUnknown: string;
  readonly #client: MastraClient;
  readonly #agentId: string;

  constructor(client: MastraClient, agentId: string) {
    this.#client = client;
    this.#agentId = agentId;
    this.description = `the memory threads of agent ${agentId} at ${client.entry.baseUrl}`;
    this.flowUnknown = "a Mastra thread does not say which agent wrote it, so the stored flow is not checked";
    this.stepUnknown = "a Mastra agent has no steps, so the stored step is not checked";
  }

  async fetchAll(id: string): Promise<SessionView | undefined> {
    const messages = await this.#client.messages(id, this.#agentId);
    if (messages === undefined) return undefined;
    return {
      id,
      version: 0,
      turns: messages.filter((message) => message.role === "user").length,
      flow: { name: this.#agentId, currentStep: "" },
      runStatus: "running",
      steps: (await this.#state(id)) as StepStates,
      children: [],
      createdAt: "",
      updatedAt: "",
      memory: {},
      execution: [],
    };
  }

  async #state(thread: string): Promise<Record<string, unknown>> {
    const pointer = this.#client.entry.workingMemory;
    if (pointer === undefined) return {};
    const stored = await this.#client.workingMemory(thread, this.#agentId);
    const at = `${this.#client.where}.workingMemory`;
    let value: unknown;
    try {
      value = typeof stored === "string" ? JSON.parse(stored) : stored;
    } catch {
      throw new FlowcheckError(
        "target_invalid_answer",
        `the working memory of thread ${thread} is ${show(stored)}, not JSON, so ${at} cannot point into it: ` +
          "give the agent's memory a working memory schema (a JSON one), or drop the pointer.",
      );
    }
    if (value === null) return {};
    const read = readPointer(value, pointer);
    const state = read.found ? read.value : undefined;
    if (state !== null && typeof state === "object" && !Array.isArray(state)) return state as Record<string, unknown>;
    throw new FlowcheckError(
      "target_invalid_answer",
      `${at} "${pointer}" finds ${read.found ? show(state) : "nothing"}, not an object of state, in the working memory ` +
        `${show(value)} of thread ${thread}. Fix the pointer in flowcheck.config.json.`,
    );
  }
}
