// Plain JavaScript, because run-specs (plain `node`, no tsx) holds one of these for all the test
// processes it starts (src/cli/coordinator.mjs), and a test process run without run-specs holds
// its own (run-limits.ts): one set of rules either way.

const MINUTE = 60_000;

/**
 * @typedef {{ kind: "conversation", limit: number, maxTokens?: number | undefined, weight?: number }} ConversationHold
 * @typedef {{ kind: "request", key: string, limit: number, rpm?: number | undefined, retry?: boolean }} RequestHold
 * @typedef {ConversationHold | RequestHold} HoldSpec
 * @typedef {{ skip?: string }} Grant
 * @typedef {{ kind: "tokens", scenario: string, input: number, output: number, price?: { input: number, output: number } | undefined }
 *   | { kind: "pause", key: string, millis: number }} Note
 * @typedef {{ key: string, granted: number, maxActive: number, retries: number, pauses: number, skipped: number }} GateSummary
 * @typedef {{ input: number, output: number }} Tokens
 * @typedef {{ conversations: GateSummary | undefined, providers: GateSummary[], tokens: { scenario: string, input: number, output: number }[],
 *   total: Tokens, price: { input: number, output: number } | undefined }} ArbiterSummary
 */

/** @typedef {{ spec: HoldSpec, onGrant: (grant: Grant) => void, state: "waiting" | "held" | "done" }} Waiter */

/** The first of the waiters with the greatest weight (none: weight 0). @param {Waiter[]} waiting */
function heaviest(waiting) {
  /** @param {Waiter} waiter */
  const weightOf = (waiter) => (waiter.spec.kind === "conversation" ? (waiter.spec.weight ?? 0) : 0);
  return waiting.reduce((best, waiter) => (weightOf(waiter) > weightOf(best) ? waiter : best));
}

class Gate {
  /** @param {string} key */
  constructor(key) {
    this.key = key;
    this.active = 0;
    this.granted = 0;
    this.maxActive = 0;
    this.retries = 0;
    this.pauses = 0;
    this.skipped = 0;
    this.pausedUntil = 0;
    /** @type {Waiter[]} */
    this.waiting = [];
    /** When each of the last minute's requests started, for OPENAI_MAX_RPM. @type {number[]} */
    this.starts = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }
}

/**
 * Grants a run's request slots in the order they are asked for, and its conversation slots the
 * heaviest first (`weight`, its turns), so the longest conversations do not start last and hold
 * up the end of the run: at most `limit` held at once per gate (conversations; requests per
 * provider), none while a provider is paused after a 429, no more than `rpm` started in a minute,
 * and no conversation once the tokens used reach its `maxTokens` (it is granted a skip instead,
 * saying why). Told to expect the definitions of several processes (`awaitDefinitions`), it grants
 * no conversation until all have asked for theirs, so that the heaviest of all are the first.
 */
export class RunArbiter {
  /** @type {Map<string, Gate>} */
  #gates = new Map();
  /** @type {Map<string, Tokens>} */
  #tokens = new Map();
  #total = { input: 0, output: 0 };
  /** @type {{ input: number, output: number } | undefined} */
  #price;
  #now;
  /** Test processes still defining their conversations; none is granted until they are done. */
  #defining = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #definingTimer;

  /** @param {() => number} [now] */
  constructor(now = () => Date.now()) {
    this.#now = now;
  }

  /**
   * Holds back conversations until `processes` test processes have each said `defined()`, or
   * `millis` have passed (a process that never says so costs the run no more than that).
   * @param {number} processes @param {number} millis
   */
  awaitDefinitions(processes, millis) {
    this.#defining = processes;
    this.#definingTimer = setTimeout(() => this.#doneDefining(), millis);
    this.#definingTimer.unref();
  }

  /** One test process has asked for all its conversations. */
  defined() {
    this.#defining -= 1;
    if (this.#defining <= 0) this.#doneDefining();
  }

  #doneDefining() {
    clearTimeout(this.#definingTimer);
    this.#defining = 0;
    const gate = this.#gates.get("conversations");
    if (gate) this.#pump(gate);
  }

  /**
   * Asks for a slot; `onGrant` is called once it is held (or skipped). Returns what gives it
   * back, or withdraws the ask before it is granted.
   * @param {HoldSpec} spec @param {(grant: Grant) => void} onGrant
   */
  hold(spec, onGrant) {
    const gate = this.#gate(spec.kind === "conversation" ? "conversations" : spec.key);
    /** @type {Waiter} */
    const waiter = { spec, onGrant, state: "waiting" };
    gate.waiting.push(waiter);
    this.#pump(gate);
    return () => {
      if (waiter.state === "waiting") gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
      if (waiter.state === "held") gate.active -= 1;
      waiter.state = "done";
      this.#pump(gate);
    };
  }

  /** @param {Note} note */
  note(note) {
    if (note.kind === "pause") {
      const gate = this.#gate(note.key);
      gate.pauses += 1;
      gate.pausedUntil = Math.max(gate.pausedUntil, this.#now() + note.millis);
      return;
    }
    const sum = this.#tokens.get(note.scenario) ?? { input: 0, output: 0 };
    sum.input += note.input;
    sum.output += note.output;
    this.#tokens.set(note.scenario, sum);
    this.#total.input += note.input;
    this.#total.output += note.output;
    if (note.price) this.#price = note.price;
  }

  /** @returns {ArbiterSummary} */
  summary() {
    /** @param {Gate} gate */
    const of = (gate) => ({ key: gate.key, granted: gate.granted, maxActive: gate.maxActive, retries: gate.retries, pauses: gate.pauses, skipped: gate.skipped });
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

  /** @param {string} key */
  #gate(key) {
    let gate = this.#gates.get(key);
    if (!gate) this.#gates.set(key, (gate = new Gate(key)));
    return gate;
  }

  /** Grants what the gate's limits allow, the heaviest first, else first come first served. @param {Gate} gate */
  #pump(gate) {
    if (gate.key === "conversations" && this.#defining > 0) return;
    while (gate.waiting.length) {
      const waiter = heaviest(gate.waiting);
      const spec = waiter.spec;
      const used = this.#total.input + this.#total.output;
      if (spec.kind === "conversation" && spec.maxTokens !== undefined && used >= spec.maxTokens) {
        gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
        waiter.state = "done";
        gate.skipped += 1;
        waiter.onGrant({ skip: `FLOW_MAX_TOKENS=${spec.maxTokens} was reached (${used} tokens used), so this conversation was not started` });
        continue;
      }
      if (gate.active >= spec.limit) return;
      const wait = this.#wait(gate, spec);
      if (wait > 0) return this.#later(gate, wait);
      gate.waiting.splice(gate.waiting.indexOf(waiter), 1);
      waiter.state = "held";
      gate.active += 1;
      gate.granted += 1;
      gate.maxActive = Math.max(gate.maxActive, gate.active);
      if (spec.kind === "request" && spec.retry) gate.retries += 1;
      if (spec.kind === "request" && spec.rpm !== undefined) gate.starts.push(this.#now());
      waiter.onGrant({});
    }
    // Nobody left waiting: a timer for them would only hold the process open.
    if (gate.timer) clearTimeout(gate.timer);
    gate.timer = undefined;
  }

  /** How long the next request must wait: out the pause after a 429, or for the minute's window. @param {Gate} gate @param {HoldSpec} spec */
  #wait(gate, spec) {
    if (spec.kind !== "request") return 0;
    const now = this.#now();
    const paused = gate.pausedUntil - now;
    if (paused > 0) return paused;
    while (gate.starts.length && /** @type {number} */ (gate.starts[0]) <= now - MINUTE) gate.starts.shift();
    if (spec.rpm === undefined || gate.starts.length < spec.rpm) return 0;
    return /** @type {number} */ (gate.starts[0]) + MINUTE - now;
  }

  /** @param {Gate} gate @param {number} millis */
  #later(gate, millis) {
    if (gate.timer) clearTimeout(gate.timer);
    gate.timer = setTimeout(() => {
      gate.timer = undefined;
      this.#pump(gate);
    }, millis);
  }
}
