import { FlowcheckError } from "../../../errors.ts";
import { compared, check, type Check } from "../../checks/check.ts";
import type { Answer } from "../../answer/read-answer.ts";
import { kindOf } from "../../scenario/describe-schema-error.ts";
import type { ScenarioTurn } from "../../scenario/scenario.ts";
import { show } from "../../scenario/show.ts";
import { readPointer } from "../json-pointer.ts";
import type { ConversationTurn, TargetConversation } from "../target-conversation.ts";
import { runWaitBody, type LanggraphClient, type LanggraphTurn } from "./langgraph-client.ts";
import { langgraphToolCalls } from "./langgraph-tool-calls.ts";
import { lastReply, type LanggraphGraphEntry } from "./langgraph-turn-view.ts";

/**
 * A conversation with one graph of a LangGraph server: the session is a thread, made by the first
 * turn; a turn is one `runs/wait`, resuming the thread when it waits on an interrupt, else a user
 * message. The answer is the interrupt's question or the run's last AI message, and claims only
 * what the run's output says: its step and completion where the graph keeps them in its state,
 * else whether the run stopped at an interrupt. The turn's tool calls are those of the AI messages
 * after the user's message in the thread's `messages`, with their tool messages.
 */
export class LanggraphConversation implements TargetConversation {
  /** Only read for a turn whose thread has no `messages`: a graph that keeps none reports no calls. */
  readonly toolCallsUnknown: string;
  readonly #client: LanggraphClient;
  readonly #graphId: string;
  readonly #pointers: LanggraphGraphEntry | undefined;
  /** Per thread, whether the last run this conversation played on it stopped at an interrupt. */
  readonly #interrupted = new Map<string, boolean>();

  constructor(client: LanggraphClient, graphId: string, pointers: LanggraphGraphEntry | undefined) {
    this.#client = client;
    this.#graphId = graphId;
    this.#pointers = pointers;
    this.toolCallsUnknown =
      `the thread of graph ${graphId} keeps no messages list in its values, where a LangGraph agent's tool calls ` +
      "and tool messages are, so the tools a turn called are not known";
  }

  /** Holds nothing open between turns: each is a request of its own. */
  close(): void {}

  async send(turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn> {
    // A new thread waits on nothing; the input is checked before one is made.
    const waiting = session !== undefined && (await this.#waiting(session));
    const input: LanggraphTurn = waiting ? { resume: turn.input } : { message: this.#message(turn, session) };
    const thread = session ?? (await this.#client.createThread());
    const body = JSON.stringify(runWaitBody(this.#graphId, input));
    // A run that fails leaves the thread where the server says: read again, should another turn come.
    this.#interrupted.delete(thread);
    const started = performance.now();
    const output = await this.#client.runWait(thread, this.#graphId, input);
    const millis = performance.now() - started;
    this.#interrupted.set(thread, Array.isArray(output["__interrupt__"]));
    const text = textOf(output);
    const toolCalls = langgraphToolCalls(await this.#messages(thread, output));
    const answer: Answer = {
      mediaType: "application/json",
      json: this.#claims(output),
      events: undefined,
      text,
      problems: [],
      claimsOnly: true,
    };
    const path = `/threads/${encodeURIComponent(thread)}/runs/wait`;
    return {
      exchange: {
        request: { method: "POST", path, ...this.#client.sent(path), body },
        response: { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(output) },
        millis,
      },
      answer,
      session: thread,
      checks: transportChecks(turn, text),
      ...(toolCalls ? { toolCalls } : {}),
    };
  }

  /**
   * Whether the thread waits on an interrupt: for a thread this conversation has run, that run's
   * output said (`__interrupt__`), so only a thread it has not run yet costs a state read.
   */
  async #waiting(thread: string): Promise<boolean> {
    const known = this.#interrupted.get(thread);
    if (known !== undefined) return known;
    return (await this.#client.threadState(thread)).tasks.some((task) => task.interrupts.length > 0);
  }

  /**
   * The thread's messages after the run: its output's, but the output of a run that stopped at an
   * interrupt holds the interrupt alone, so the thread's state is read for them.
   */
  async #messages(thread: string, output: Record<string, unknown>): Promise<unknown> {
    if ("messages" in output || !Array.isArray(output["__interrupt__"])) return output["messages"];
    return (await this.#client.threadState(thread)).values["messages"];
  }

  /** The turn's input as a user message, which must be text: a JSON value only answers a pending interrupt. */
  #message(turn: ScenarioTurn, thread: string | undefined): string {
    if (typeof turn.input === "string") return turn.input;
    const which = thread === undefined ? "the new thread" : `thread ${thread}`;
    throw new FlowcheckError(
      "scenario_failed",
      `the input ${show(turn.input)} is ${kindOf(turn.input)}, but ${which} of graph ${this.#graphId} waits on no interrupt, ` +
        "so the turn is a user message, which must be text; nothing was sent. A JSON value resumes a pending interrupt: " +
        "expect the turn before to stop at one, or write this input as a string.",
    );
  }

  /** What the run's output claims of the thread: values read by the graph's pointers, else whether it waits on an interrupt. */
  #claims(output: Record<string, unknown>): Record<string, unknown> {
    const claims: Record<string, unknown> = {};
    const step = this.#pointers?.step;
    if (step !== undefined) {
      const read = readPointer({ values: output }, step);
      if (read.found) claims["currentStep"] = read.value;
    }
    const completed = this.#pointers?.completed;
    if (completed === undefined) claims["completed"] = !Array.isArray(output["__interrupt__"]);
    else {
      const read = readPointer({ values: output }, completed);
      if (read.found) claims["completed"] = read.value === true;
    }
    return claims;
  }
}

/** The interrupt's question, else the last AI message after the user's. */
function textOf(output: Record<string, unknown>): string {
  const interrupts = output["__interrupt__"];
  const first: unknown = Array.isArray(interrupts) ? interrupts[0] : undefined;
  if (first !== undefined) {
    const value = (first as { value?: unknown } | null)?.value;
    return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  }
  return lastReply(output["messages"]);
}

/** A LangGraph run's transport contract: it answered (a run that failed or an error status threw already) and said something. */
function transportChecks(turn: ScenarioTurn, text: string): Check[] {
  const expected = turn.expectedStatus ?? 200;
  return [
    compared(
      "transport",
      "status",
      expected === 200
        ? undefined
        : `expected status ${expected}, but a LangGraph run that stops answers 200 (one that fails is a failed request); expect 200`,
      expected,
      200,
    ),
    check(
      "transport",
      "answer",
      text === ""
        ? "the run neither waits on an interrupt nor added an AI message after the user's: there is no answer to read"
        : undefined,
    ),
  ];
}
