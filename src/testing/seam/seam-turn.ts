import { isDeepStrictEqual } from "node:util";
import type { CalledTool } from "../checks/called-tool.ts";
import type { ModelFault } from "../scenario/scenario.ts";
import { normalizedInput } from "./user-inputs.ts";

/** A turn as the run opens it at the seam: its number and label, the user's input, its fault. */
export interface SeamTurnStart {
  readonly number: number;
  readonly label: string;
  readonly input: string;
  readonly fault?: ModelFault;
}

/** What the seam saw of a turn once it ended. */
export interface SeamTurnRecord {
  /** The distinct model calls credited to the turn; a retry (the same body again) is not counted. */
  readonly calls: number;
  /** The tools the model asked for, each with the output the app sent back, or pending. */
  readonly toolCalls: CalledTool[];
  /** Why the turn must fail: a script unmatched, a request the seam does not speak, a source's error. */
  readonly problems: string[];
}

/** Where a call stands in its turn and conversation. */
export interface CallPlace {
  /** Its number among the turn's distinct calls, from 1: what a fault's `call` counts. */
  readonly index: number;
  /** Its number among the conversation's distinct calls, from 1: what its tool-call ids carry. */
  readonly number: number;
  /** Whether it repeats the previous call's body: an SDK's retry, answered as that call. */
  readonly retry: boolean;
}

/** A turn in flight at the seam: the calls credited to it so far and what failed it. */
export class SeamTurn {
  readonly number: number;
  readonly label: string;
  readonly input: string;
  /** The input as crediting compares it. */
  readonly key: string;
  readonly fault: ModelFault | undefined;
  /** The conversation's inputs before this turn, normalized. */
  readonly earlier: readonly string[];
  readonly #problems: string[] = [];
  /** The ids of the tool calls the model asked for in this turn, in order. */
  readonly asked: string[] = [];
  /** Settles when the turn ends, so a turn with the same input may begin. */
  readonly ended: Promise<void>;
  #end: () => void = () => undefined;
  #calls = 0;
  #last: { body: unknown; place: CallPlace } | undefined;

  constructor(start: SeamTurnStart, earlier: readonly string[]) {
    this.number = start.number;
    this.label = start.label;
    this.input = start.input;
    this.key = normalizedInput(start.input);
    this.fault = start.fault;
    this.earlier = earlier;
    this.ended = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  get calls(): number {
    return this.#calls;
  }

  /** Places a call with this body: a retry of the previous call, or the turn's next distinct call. */
  place(body: unknown, nextNumber: () => number): CallPlace {
    if (this.#last && isDeepStrictEqual(this.#last.body, body)) return { ...this.#last.place, retry: true };
    this.#calls += 1;
    const place = { index: this.#calls, number: nextNumber(), retry: false };
    this.#last = { body, place };
    return place;
  }

  get problems(): string[] {
    return [...this.#problems];
  }

  /** Fails the turn for this reason; a retry failing for the same one adds nothing. */
  fail(problem: string): void {
    if (!this.#problems.includes(problem)) this.#problems.push(problem);
  }

  /** The turn's fault when it falls on this call (and so on its retries). */
  faultOn(place: CallPlace): ModelFault | undefined {
    return this.fault?.call === place.index ? this.fault : undefined;
  }

  end(): void {
    this.#end();
  }
}
