import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";

/** What a scenario run emits, in order: the node:test integration, the transcript writer and any report consume it. */
export type ScenarioEvent =
  | { type: "scenario:start"; scenario: LoadedScenario; target: TargetSummary }
  | { type: "turn:end"; report: TurnReport }
  | { type: "final"; report: FinalReport }
  | { type: "scenario:end"; outcome: "passed" | "failed"; recorded?: RecordedCassette };

/** The cassette a conversation recorded, and whether it is saved (a failed FLOW_MODEL=auto recording is not). */
export interface RecordedCassette {
  cassette: string;
  saved: boolean;
}

export interface TargetSummary {
  baseUrl: string;
  store: string;
  pins: Readonly<Record<string, string>>;
  models?: Readonly<Record<string, string>>;
}
