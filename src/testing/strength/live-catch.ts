import type { Mutant } from "./mutant.ts";
import type { TurnReport } from "../checks/turn-report.ts";

/** Whether the turn already checked `name` and the check passed on the unmutated flow. */
function checked(turn: TurnReport, name: string): boolean {
  return turn.checks.some((check) => check.name === name && check.outcome === "passed");
}

/**
 * The expectation on `turn` (the unmutated play's) that would catch `mutant` where only the
 * scripted model or a cassette refused it: a live model answers whatever it is sent, so the
 * scenario must check what the mutant changes. Says so when the turn checks it already, e.g.
 * `add "expectState": { "NameStep": { "name": "Ada" } }` or `its "expectedActiveStep": "WeatherStep" catches it live`.
 */
export function liveCatch(mutant: Mutant, turn: TurnReport | undefined): string {
  const stored = turn?.stored;
  if ("tool" in mutant && stored && mutant.flow === stored.flow.name) {
    const change = mutant.change;
    if (change.kind === "drop-write" || change.kind === "change-value") {
      const value = stored.steps[mutant.step]?.[change.key];
      if (turn && checked(turn, `expectState.${mutant.step}`))
        return `its expectState.${mutant.step} catches it live if it names ${change.key}`;
      return `add "expectState": { "${mutant.step}": { "${change.key}": ${JSON.stringify(value)} } }`;
    }
    if (change.kind === "withhold-complete")
      return turn && checked(turn, "completed") ? `its "completed": true catches it live` : `add "completed": true`;
    const step = stored.flow.currentStep;
    return turn && checked(turn, "expectedActiveStep")
      ? `its "expectedActiveStep": "${step}" catches it live`
      : `add "expectedActiveStep": "${step}"`;
  }
  if ("child" in mutant) return `add "finalChildren" naming the ${mutant.child} run as the unmutated flow left it`;
  return "add an expectation on what its answer or stored state shows without the mutant (responseMustInclude, expectState)";
}
