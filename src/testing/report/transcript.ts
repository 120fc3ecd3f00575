import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import type { TargetSummary } from "../run/scenario-event.ts";
import type { UserStyle } from "../../engine/scripted-user.ts";

export const TRANSCRIPT_KINDS = ["contract", "semantic"] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];

/** The failure artifact: everything a person needs to see what happened without re-running the chat. */
export interface Transcript {
  transcript: 1;
  kind: TranscriptKind;
  /** `user`: a simulated conversation's user as the scenario gives it (its style defaulted). */
  scenario: {
    file: string;
    name: string;
    flowName: string;
    description?: string;
    user?: { persona: string; goal: string; style: UserStyle };
  };
  target: Omit<TargetSummary, "pins">;
  pins: Record<string, string>;
  startedAt: string;
  outcome: "passed" | "failed";
  /** The first failure's message, starting with where it stands in the file (as node:test shows it). */
  failure?: string;
  /** Where the first failure stands in the scenario file: `scenarios/basic-flow.scenario.json:27`. */
  location?: string;
  turns: TurnReport[];
  final?: FinalReport;
}
