import type { RunStatus } from "../../engine/session-document.ts";
import type { SessionViewHead } from "../checks/session-view.ts";

/** What a report shows of the stored session after a turn: its step, run status and turn count, when the target keeps one. */
export interface StoredSummary {
  step: string;
  runStatus: RunStatus;
  /** Absent for a target that keeps no count of turns (a LangGraph thread, an http state endpoint). */
  turns?: number;
}

/** The stored session as a report shows it, with no `turns` where the target kept none. */
export function storedSummaryOf(stored: SessionViewHead): StoredSummary {
  return {
    step: stored.flow.currentStep,
    runStatus: stored.runStatus,
    ...(stored.turns === undefined ? {} : { turns: stored.turns }),
  };
}

/** How a report says the stored turn count: `2 turns`, `1 turn`, or that it is unknown, never 0. */
export function storedTurns(turns: number | undefined): string {
  if (turns === undefined) return "turn count unknown";
  return `${turns} turn${turns === 1 ? "" : "s"}`;
}
