import { check, failed } from "../checks/check.ts";
import { finalChecks } from "../checks/final-checks.ts";
import { skipped, type Check } from "../checks/check.ts";
import { tokenChecks } from "../checks/budget-checks.ts";
import { successChecks } from "../checks/success-checks.ts";
import type { FinalReport, SimulationReport, TurnReport } from "../checks/turn-report.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";
import type { SessionView } from "../checks/session-view.ts";
import type { RunOptions } from "./run-options.ts";

interface PlayedSoFar {
  session: string | undefined;
  failedTurn: TurnReport | undefined;
  /** The whole session as the last turn read it, when it did: nothing to read again. */
  last: SessionView | undefined;
  /** Every turn played, the simulated user's too. */
  reports: readonly TurnReport[];
  /** For a simulated conversation, how it went: its `success` is checked too. */
  simulation?: SimulationReport | undefined;
}

/**
 * The domain contract on the stored session after the last turn: the scenario's final
 * expectations, a simulated conversation's `success`, every recorded call made (in replay), and the
 * spec's own domain checks; skipped after a failed turn or without a store, saying why. The
 * scenario's budget is checked whatever else failed, once a turn was played: a budget says what a
 * conversation may spend, and the spending up to a failure is known.
 */
export async function finalReport(
  loaded: LoadedScenario,
  target: ScenarioTarget,
  options: RunOptions,
  played: PlayedSoFar,
): Promise<FinalReport> {
  const sessions = target.sessions.reader;
  const simulation = played.simulation ? { simulation: played.simulation } : {};
  if (played.failedTurn || !sessions) {
    const why = played.failedTurn ? `turn ${played.failedTurn.number} failed` : target.sessions.unavailable!;
    const budget = played.reports.some((report) => report.outcome !== "skipped")
      ? scenarioTokenChecks(loaded, target, played.reports)
      : [];
    const report = { ...budgetOnly(loaded, why, budget), ...simulation };
    // For the transcript: the whole session as the failure left it, when it can be read at all.
    const stored =
      played.failedTurn && sessions && played.session
        ? await sessions.fetchAll(played.session).catch(() => undefined)
        : undefined;
    if (stored) report.stored = stored;
    return report;
  }
  const stored = played.last ?? (played.session ? await sessions.fetchAll(played.session) : undefined);
  const checks = [
    ...finalChecks(loaded.scenario, stored, sessions.keyedBy),
    ...scenarioTokenChecks(loaded, target, played.reports),
  ];
  const success = loaded.scenario.success;
  if (played.simulation && success) {
    checks.push(...successChecks(success, played.simulation, stored, played.reports, sessions.keyedBy));
    if (success.judge !== undefined) checks.push(await wholeVerdict(loaded, success, played.reports, options));
  }
  const cassette = target.capabilities?.cassette;
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
  const report: FinalReport = failures.length
    ? { outcome: "failed", failure: `final state: ${failureText(failures)}`, checks }
    : { outcome: "passed", checks };
  if (played.simulation) report.simulation = played.simulation;
  if (stored) report.stored = stored;
  const location = report.outcome === "failed" ? scenarioLocation(loaded) : undefined;
  if (location) report.location = location;
  return report;
}

/** `maxTokens: the model calls ...; domain checks: ...`: each failed check by name. */
function failureText(failures: readonly Check[]): string {
  return failures.map((c) => `${c.name}: ${c.message}`).join("; ");
}

/**
 * The final state when only the scenario's budget could be checked (`why` says why the rest was
 * not): failed when the budget was overspent, else skipped, naming what held.
 */
function budgetOnly(loaded: LoadedScenario, why: string, checks: Check[]): FinalReport {
  const failures = checks.filter((c) => c.outcome === "failed");
  if (failures.length) {
    const failure = `final state (${why}, so only the scenario's budget was checked): ${failureText(failures)}`;
    const location = scenarioLocation(loaded);
    return { outcome: "failed", failure, checks, ...(location ? { location } : {}) };
  }
  const held = checks.filter((c) => c.outcome === "passed").map((c) => c.name);
  const heldText = held.length ? `; the scenario's ${held.join(" and ")} held` : "";
  return { outcome: "skipped", skipReason: `${why}${heldText}`, checks };
}

/** The scenario's `maxTokens` and `maxCostUsd` on its turns' model calls together; no count known on any turn: none known. */
function scenarioTokenChecks(loaded: LoadedScenario, target: ScenarioTarget, reports: readonly TurnReport[]): Check[] {
  const counted = reports.flatMap((report) => (report.tokens?.model ? [report.tokens.model] : []));
  const tokens = counted.length
    ? counted.reduce((sum, used) => ({ input: sum.input + used.input, output: sum.output + used.output }))
    : undefined;
  return tokenChecks("the scenario", loaded.scenario, tokens, target.capabilities?.config?.limits.price);
}

/** The judge's verdict on `success.judge` over the whole conversation; skipped (or, under JUDGE=required, failed) without a judge. */
async function wholeVerdict(
  loaded: LoadedScenario,
  success: NonNullable<LoadedScenario["scenario"]["success"]>,
  reports: readonly TurnReport[],
  options: RunOptions,
): Promise<Check> {
  const unavailable =
    options.judgeUnavailable ?? "no LLM judge is configured in this run, so success.judge is not graded";
  const last = reports.at(-1);
  if (!options.judge)
    return options.judgeRequired
      ? failed("success", "success.judge", `JUDGE=required, but ${unavailable}`)
      : skipped("success", "success.judge", unavailable);
  if (!last || last.answer === undefined)
    return failed("success", "success.judge", "the conversation has no answer to judge");
  const verdict = await options.judge({
    scenario: loaded.scenario,
    turn: {
      label: "the whole conversation",
      input: last.input,
      expectedResponse: success.judge!,
      ...(success.minScore === undefined ? {} : { minScore: success.minScore }),
    },
    // The judge reads the last answer's text; what it was sent as does not matter to a whole conversation.
    answer: { mediaType: "", json: undefined, events: undefined, text: last.answer, problems: [] },
    history: reports.slice(0, -1),
    whole: true,
  });
  return { ...verdict, contract: "success", name: "success.judge" };
}
