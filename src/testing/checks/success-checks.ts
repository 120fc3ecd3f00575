import type { SessionView } from "./session-view.ts";
import { check, compared, failed, type Check } from "./check.ts";
import { stateMatch, type StateKeys } from "./state-match.ts";
import type { ScenarioSuccess } from "../scenario/scenario.ts";
import type { SimulationReport, TurnReport } from "./turn-report.ts";

/** Which answers hold a phrase (case-insensitive), by turn number. */
function turnsSaying(reports: readonly TurnReport[], phrase: string): number[] {
  const needle = phrase.toLowerCase();
  return reports.flatMap((report) => (report.answer?.toLowerCase().includes(needle) ? [report.number] : []));
}

/**
 * A simulated conversation against its scenario's `success`, on what the flow stored at the end
 * and what the assistant said on the way: the user's side must not have failed, the run must be
 * completed (or not) as asked, each step's state must match, each phrase must be in some answer and
 * each forbidden one in none. The judge's criterion is graded apart, as it needs a model.
 */
export function successChecks(
  success: ScenarioSuccess,
  simulation: SimulationReport,
  stored: SessionView | undefined,
  reports: readonly TurnReport[],
  keyedBy: StateKeys = "step",
): Check[] {
  const checks: Check[] = [];
  if (simulation.end.reason === "user-failed") checks.push(failed("success", "user", simulation.end.detail));
  if (success.completed !== undefined) {
    const wanted = success.completed ? "completed" : "running";
    const actual = stored?.runStatus;
    checks.push(
      compared(
        "success",
        "success.completed",
        actual === wanted
          ? undefined
          : stored
            ? `expected runStatus ${wanted} at the end, stored ${actual} (on ${stored.flow.currentStep})`
            : "no session was stored",
        wanted,
        actual,
      ),
    );
  }
  for (const [step, expected] of Object.entries(success.finalState ?? {})) {
    const problems = stored ? stateMatch(expected, stored.steps, step, keyedBy) : ["no session was stored"];
    checks.push(
      compared(
        "success",
        `success.finalState.${step}`,
        problems.length ? problems.join("; ") : undefined,
        expected,
        stored?.steps[step],
      ),
    );
  }
  success.responseMustInclude?.forEach((phrase, index) => {
    const problem = turnsSaying(reports, phrase).length ? undefined : `no answer of the conversation says "${phrase}"`;
    checks.push({ ...check("success", `success.responseMustInclude[${index}]`, problem), expected: phrase });
  });
  success.responseMustNotInclude?.forEach((phrase, index) => {
    const turns = turnsSaying(reports, phrase);
    const problem = turns.length ? `the answer of turn ${turns.join(", ")} says "${phrase}"` : undefined;
    checks.push({ ...check("success", `success.responseMustNotInclude[${index}]`, problem), expected: phrase });
  });
  return checks;
}
