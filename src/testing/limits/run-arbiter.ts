const MINUTE = 60_000;

/**
 * `uncounted`: asked for by none of the run's own suites (a spec's fixture suite writing its
 * artifacts elsewhere, a target a spec starts itself): limited with the rest, but left out of the
 * run's summary.
 */
interface Counting {
  uncounted?: boolean;
}
export interface ConversationHold extends Counting {
  kind: "conversation";
  limit: number;
  maxTokens?: number | undefined;
  weight?: number;
}
export interface RequestHold extends Counting {
  kind: "request";
  key: string;
  limit: number;
  rpm?: number | undefined;
  retry?: boolean;
}
export type HoldSpec = ConversationHold | RequestHold;
export interface Grant {
  skip?: string;
}
export type Note = Counting &
  (
    | {
        kind: "tokens";
        scenario: string;
        input: number;
        output: number;
        price?: { input: number; output: number } | undefined;
      }
    | { kind: "pause"; key: string; millis: number }
  );
export interface GateSummary {
  key: string;
  granted: number;
  maxActive: number;
  retries: number;
  pauses: number;
  skipped: number;
}
interface Tokens {
  input: number;
  output: number;
}
export interface ArbiterSummary {
  conversations: GateSummary | undefined;
  providers: GateSummary[];
  tokens: { scenario: string; input: number; output: number }[];
  total: Tokens;
  price: { input: number; output: number } | undefined;
}

interface Waiter {
  spec: HoldSpec;
  onGrant: (grant: Grant) => void;
  state: "waiting" | "held" | "done";
}

/** The first of the waiters with the greatest weight (none: weight 0). */
function heaviest(waiting: Waiter[]): Waiter {
  const weightOf = (waiter: Waiter) => (waiter.spec.kind === "conversation" ? (waiter.spec.weight ?? 0) : 0);
  return waiting.reduce((best, waiter) => (weightOf(waiter) > weightOf(best) ? waiter : best));
}

class Gate {
  readonly key: string;
  active = 0;
  /** The slots held that the summary counts; `granted`, `maxActive`, `retries`, `pauses` and `skipped` count those alone. */
  activeCounted = 0;
  granted = 0;
  maxActive = 0;
  retries = 0;
  pauses = 0;
  skipped = 0;
  pausedUntil = 0;
  waiting: Waiter[] = [];
  /** When each of the last minute's requests started, for OPENAI_MAX_RPM. */
  starts: number[] = [];
  timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(key: string) {
    this.key = key;
  }
}

/**
 * Grants a run's request slots in the order they are asked for, and its conversation slots the
 * heaviest first (`weight`, its turns), so the longest conversations do not start last and hold
 * up the end of the run: at most `limit` held at once per gate (conversations; requests per
 * provider), none while a provider is paused after a 429, no more than `rpm` started in a minute,
 * and no conversation once the tokens used reach its `maxTokens` (it is granted a skip instead,
 * saying why). Told that the run's suites are still being defined (`awaitDefinitions`), it grants
 * no conversation until they all have asked for theirs, so that the heaviest of all is the first.
 */
export class RunArbiter {
  readonly #gates = new Map<string, Gate>();
  readonly #tokens = new Map<string, Tokens>();
  /** The summary's total: the tokens of the run's own suites. */
  readonly #total: Tokens = { input: 0, output: 0 };
  /** Every token used in this process, which the budget (`maxTokens`) is read against. */
  #spent = 0;
  #price: { input: number; output: number } | undefined;
  readonly #now: () => number;
  /** Whether the run's suites are still being defined; no conversation is granted until they are. */
  #defining = false;
  #definingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(now = () => Date.now()) {
    this.#now = now;
  }

  /**
   * Holds back conversations until `defined()` is called, or `millis` have passed (a spec that
   * hangs while loading costs the run no more than that).
   */
  awaitDefinitions(millis: number): void {
    this.#defining = true;
    this.#definingTimer = setTimeout(() => this.defined(), millis);
    this.#definingTimer.unref();
  }

  /** Every suite of the run has asked for its conversations. */
  defined(): void {
    clearTimeout(this.#definingTimer);
    this.#defining = false;
    const gate = this.#gates.get("conversations");
    if (gate) this.#pump(gate);
  }

  /**
   * Asks for a slot; `onGrant` is called once it is held (or skipped). Returns what gives it
   * back, or withdraws the ask before it is granted.
   */
  hold(spec: HoldSpec, onGrant: (grant: Grant) => void): () => void {
    const gate = this.#gate(spec.kind === "conversation" ? "conversations" : spec.key);
    const waiter: Waiter = { spec, onGrant, state: "waiting" };
    gate.waiting.push(waiter);
    this.#pump(gate);
    return () => {
      if (waiter.state === "waiting") gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
      if (waiter.state === "held") {
        gate.active -= 1;
        if (!spec.uncounted) gate.activeCounted -= 1;
      }
      waiter.state = "done";
      this.#pump(gate);
    };
  }

  note(note: Note): void {
    if (note.kind === "pause") {
      const gate = this.#gate(note.key);
      if (!note.uncounted) gate.pauses += 1;
      gate.pausedUntil = Math.max(gate.pausedUntil, this.#now() + note.millis);
      return;
    }
    this.#spent += note.input + note.output;
    if (note.uncounted) return;
    const sum = this.#tokens.get(note.scenario) ?? { input: 0, output: 0 };
    sum.input += note.input;
    sum.output += note.output;
    this.#tokens.set(note.scenario, sum);
    this.#total.input += note.input;
    this.#total.output += note.output;
    if (note.price) this.#price = note.price;
  }

  /** What the run's own suites took: a hold or note `uncounted` was limited (and spent the budget) but is not in it. */
  summary(): ArbiterSummary {
    const of = (gate: Gate): GateSummary => ({
      key: gate.key,
      granted: gate.granted,
      maxActive: gate.maxActive,
      retries: gate.retries,
      pauses: gate.pauses,
      skipped: gate.skipped,
    });
    const gates = [...this.#gates.values()];
    const conversations = gates.find((gate) => gate.key === "conversations");
    return {
      conversations: conversations && of(conversations),
      providers: gates.filter((gate) => gate !== conversations).map(of),
      tokens: [...this.#tokens].map(([scenario, sum]) => ({ scenario, ...sum })),
      total: { ...this.#total },
      price: this.#price,
    };
  }

  #gate(key: string): Gate {
    let gate = this.#gates.get(key);
    if (!gate) this.#gates.set(key, (gate = new Gate(key)));
    return gate;
  }

  /** Grants what the gate's limits allow, the heaviest first, else first come first served. */
  #pump(gate: Gate): void {
    if (gate.key === "conversations" && this.#defining) return;
    while (gate.waiting.length) {
      const waiter = heaviest(gate.waiting);
      const spec = waiter.spec;
      const used = this.#spent;
      if (spec.kind === "conversation" && spec.maxTokens !== undefined && used >= spec.maxTokens) {
        gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
        waiter.state = "done";
        if (!spec.uncounted) gate.skipped += 1;
        waiter.onGrant({
          skip: `FLOW_MAX_TOKENS=${spec.maxTokens} was reached (${used} tokens used), so this conversation was not started`,
        });
        continue;
      }
      if (gate.active >= spec.limit) return;
      const wait = this.#wait(gate, spec);
      if (wait > 0) return this.#later(gate, wait);
      gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
      waiter.state = "held";
      gate.active += 1;
      if (!spec.uncounted) {
        gate.activeCounted += 1;
        gate.granted += 1;
        gate.maxActive = Math.max(gate.maxActive, gate.activeCounted);
        if (spec.kind === "request" && spec.retry) gate.retries += 1;
      }
      if (spec.kind === "request" && spec.rpm !== undefined) gate.starts.push(this.#now());
      waiter.onGrant({});
    }
    // Nobody left waiting: a timer for them would only hold the process open.
    if (gate.timer) clearTimeout(gate.timer);
    gate.timer = undefined;
  }

  /** How long the next request must wait: out the pause after a 429, or for the minute's window. */
  #wait(gate: Gate, spec: HoldSpec): number {
    if (spec.kind !== "request") return 0;
    const now = this.#now();
    const paused = gate.pausedUntil - now;
    if (paused > 0) return paused;
    while (gate.starts.length && gate.starts[0]! <= now - MINUTE) gate.starts.shift();
    if (spec.rpm === undefined || gate.starts.length < spec.rpm) return 0;
    return gate.starts[0]! + MINUTE - now;
  }

  #later(gate: Gate, millis: number): void {
    if (gate.timer) clearTimeout(gate.timer);
    gate.timer = setTimeout(() => {
      gate.timer = undefined;
      this.#pump(gate);
    }, millis);
  }
}
