import type { Check } from "../../src/testing/checks/check.ts";
import type { TurnReport } from "../../src/testing/checks/turn-report.ts";
import type { ExecutionEntry, StepStates, ChildRun, RunStatus } from "../../src/engine/session-document.ts";
import type { StrengthPlay } from "../../src/testing/strength/strength-play.ts";

/** A turn as a strength run reads it: its stored step, run status and state, and its answer. */
export interface BuiltTurn {
  label: string;
  step: string;
  steps: StepStates;
  answer: string;
  runStatus?: RunStatus;
  execution?: Omit<ExecutionEntry, "seq" | "turn">[];
  children?: ChildRun[];
  failed?: Check;
  body?: unknown;
}

function headOf(turn: BuiltTurn, session: string) {
  return {
    id: session,
    version: 1,
    flow: { name: "BasicFlow", currentStep: turn.step },
    runStatus: turn.runStatus ?? "running",
    steps: turn.steps,
    children: turn.children ?? [],
    createdAt: "",
    updatedAt: "",
  };
}

/** A scenario's play of BasicFlow built from its turns, as `playForStrength` would report it. */
export function builtPlay(scenario: string, turns: readonly BuiltTurn[], session = "session"): StrengthPlay {
  const reports: TurnReport[] = turns.map((turn, index) => ({
    number: index + 1,
    label: turn.label,
    input: `message ${index + 1}`,
    answer: turn.answer,
    outcome: turn.failed ? "failed" : "passed",
    ...(turn.failed ? { failure: `turn ${index + 1} '${turn.label}': ${turn.failed.message ?? ""}` } : {}),
    ...(turn.body === undefined ? {} : { response: { status: 502, headers: {}, body: turn.body } }),
    stored: headOf(turn, session),
    checks: turn.failed ? [turn.failed] : [],
  }));
  const last = turns.at(-1)!;
  const execution = turns
    .flatMap((turn, index) => (turn.execution ?? []).map((entry) => ({ ...entry, turn: index + 1 })))
    .map((entry, index) => ({ ...entry, seq: index + 1 }));
  const failed = turns.some((turn) => turn.failed);
  return {
    scenario,
    outcome: failed ? "failed" : "passed",
    turns: reports,
    final: {
      outcome: failed ? "skipped" : "passed",
      checks: [],
      stored: { ...headOf(last, session), memory: {}, execution },
    },
    models: { BasicFlow: "scripted" },
  };
}
