import type { TokenCount, TurnReport } from "../checks/turn-report.ts";

/** Whose call it is: the flow's model, the judge, or the model playing a simulated user. */
export type CallKind = "model" | "judge" | "user";

const KINDS: readonly CallKind[] = ["model", "judge", "user"];

/** The tokens one conversation's calls used, by kind, as their providers' `usage` says. */
export class UsageMeter {
  readonly #used = Object.fromEntries(KINDS.map((kind) => [kind, { input: 0, output: 0 }])) as Record<
    CallKind,
    TokenCount
  >;

  add(kind: CallKind, tokens: TokenCount): void {
    this.#used[kind].input += tokens.input;
    this.#used[kind].output += tokens.output;
  }

  snapshot(): Record<CallKind, TokenCount> {
    return Object.fromEntries(KINDS.map((kind) => [kind, { ...this.#used[kind] }])) as Record<CallKind, TokenCount>;
  }

  /** What was used since `before`, for a turn's report; undefined when nothing was. */
  since(before: Record<CallKind, TokenCount>): TurnReport["tokens"] {
    const tokens: NonNullable<TurnReport["tokens"]> = {};
    for (const kind of KINDS) {
      const input = this.#used[kind].input - before[kind].input;
      const output = this.#used[kind].output - before[kind].output;
      if (input || output) tokens[kind] = { input, output };
    }
    return Object.keys(tokens).length ? tokens : undefined;
  }
}
