import { check, failed } from "../checks/check.ts";
import { finalChecks } from "../checks/final-checks.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";
import type { SessionView } from "../target/session-view.ts";
import type { RunOptions } from "./run-options.ts";

interface PlayedSoFar {
  session: string | undefined;
  failedTurn: TurnReport | undefined;
  /** The whole session as the last turn read it, when it did: nothing to read again. */
  last: SessionView | undefined;
}

/**
 * The domain contract on the stored session after the last turn: the scenario's final
 * expectations, every recorded call made (in replay), and the spec's own domain checks; skipped
 * after a failed turn or without a store, saying why.
 */
export async function finalReport(
  loaded: LoadedScenario,
  target: ScenarioTarget,
  options: RunOptions,
  played: PlayedSoFar,
): Promise<FinalReport> {
  const sessions = target.sessions;
  let report: FinalReport;
  if (played.failedTurn) {
    report = { outcome: "skipped", skipReason: `turn ${played.failedTurn.number} failed`, checks: [] };
    // For the transcript: the whole session as the failure left it, when it can be read at all.
    const stored =
      sessions && played.session ? await sessions.fetchAll(played.session).catch(() => undefined) : undefined;
    if (stored) report.stored = stored;
    return report;
  }
  if (!sessions)
    return { outcome: "skipped", skipReason: target.sessionsUnavailable ?? "no store to read", checks: [] };
  const stored = played.last ?? (played.session ? await sessions.fetchAll(played.session) : undefined);
  const checks = finalChecks(loaded.scenario, stored);
  const cassette = target.cassette;
  if (cassette?.mode === "replay") checks.push(check("cassette", "every recorded call made", cassette.leftovers()));
  if (options.domain) {
    try {
      if (!stored) throw new Error("no session was stored");
      await options.domain(stored, loaded.scenario);
      checks.push({ contract: "domain", name: "domain checks", outcome: "passed" });
    } catch (error) {
      checks.push(failed("domain", "domain checks", (error as Error).message));
    }
  }
  const failures = checks.filter((c) => c.outcome === "failed");
  report = failures.length
    ? {
        outcome: "failed",
        failure: `final state: ${failures.map((c) => `${c.name}: ${c.message}`).join("; ")}`,
        checks,
      }
    : { outcome: "passed", checks };
  if (stored) report.stored = stored;
  const location = report.outcome === "failed" ? scenarioLocation(loaded) : undefined;
  if (location) report.location = location;
  return report;
}
