import type { TokenCount, TurnReport } from "../checks/turn-report.ts";

export type CallKind = "model" | "judge";

/** The tokens one conversation's model and judge calls used, as their providers' `usage` says. */
export class UsageMeter {
  readonly #used: Record<CallKind, TokenCount> = { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } };

  add(kind: CallKind, tokens: TokenCount): void {
    this.#used[kind].input += tokens.input;
    this.#used[kind].output += tokens.output;
  }

  snapshot(): Record<CallKind, TokenCount> {
    return { model: { ...this.#used.model }, judge: { ...this.#used.judge } };
  }

  /** What was used since `before`, for a turn's report; undefined when nothing was. */
  since(before: Record<CallKind, TokenCount>): TurnReport["tokens"] {
    const tokens: NonNullable<TurnReport["tokens"]> = {};
    for (const kind of ["model", "judge"] as const) {
      const input = this.#used[kind].input - before[kind].input;
      const output = this.#used[kind].output - before[kind].output;
      if (input || output) tokens[kind] = { input, output };
    }
    return Object.keys(tokens).length ? tokens : undefined;
  }
}
