import { checklistStrictOf, environment } from "../config.ts";
import type { FlowEntry } from "../engine/index.ts";
import type { FlowChecklist } from "../testing/checklist/checklist.ts";
import { runChecklist } from "../testing/checklist/flow-checklist.ts";
import { foreignFlowChecklist } from "../testing/checklist/foreign-flow-checklist.ts";
import { MARKS_LEGEND, renderChecklist, strictFailures } from "../testing/report/render-checklist.ts";
import { plannedRun } from "../testing/report/current-run.ts";
import type { ProjectProof, RunResults } from "../testing/report/run-results.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";

/** Every scenario file under scenarios/, by the flow it names, as the run found them (else found now). */
function scenarioFilesByFlow(): Record<string, string[]> {
  const catalog = plannedRun()?.scenarios ?? new ScenarioCatalog();
  const byFlow: Record<string, string[]> = {};
  for (const file of catalog.under("scenarios").files) {
    const flow = catalog.headerOf(file)?.flowName;
    if (typeof flow === "string") (byFlow[flow] ??= []).push(file);
  }
  return byFlow;
}

/** The run's own proof of point 12: `npm test` passes `--typechecked` once `npm run typecheck` has passed. */
export function typecheckProof(typechecked: boolean): ProjectProof[] {
  return typechecked ? [{ point: "12", key: "typecheck" }] : [];
}

/**
 * The new-flow checklist of `results` for the registered `flows`, and for the flows targets of
 * another kind served (`foreignFlowChecklist`); undefined for a run that played none of them, such
 * as the repository's own specs alone. Strictness is read from the run's environment, else the process's.
 */
export function checklistOf(results: RunResults, registeredFlows: readonly FlowEntry[]): FlowChecklist[] | undefined {
  const names = new Set(registeredFlows.map((entry) => entry.flow.name));
  // Coverage marks the flows a target of another kind served.
  const foreign = Object.entries(results.coverage ?? {})
    .filter(([flow, entry]) => entry.servedBy !== undefined && !names.has(flow))
    .map(([flow]) => flow);
  const ours = results.conversations.some(
    (conversation) => conversation.flowName !== undefined && names.has(conversation.flowName),
  );
  if (!ours && foreign.length === 0) return undefined;
  const env = ours ? (plannedRun()?.environment ?? environment()) : {};
  const registered = ours
    ? runChecklist({
        results,
        flows: registeredFlows.map((entry) => entry.flow),
        scenarioFiles: scenarioFilesByFlow(),
        strict: (flow) => checklistStrictOf(flow.envPrefix, env),
      })
    : [];
  return [...registered, ...foreign.sort().map((flow) => foreignFlowChecklist(flow, results))];
}

/** The checklist as checklistOf measures it, every flow's table printed (results:merge prints it so). */
export function reportChecklist(
  results: RunResults,
  out: string,
  registeredFlows: readonly FlowEntry[],
): FlowChecklist[] | undefined {
  const checklist = checklistOf(results, registeredFlows);
  if (!checklist) return undefined;
  console.log(`\nnew-flow checklist, the guide's points measured on this run (${out}, "checklist"; ${MARKS_LEGEND}):`);
  for (const line of renderChecklist(checklist)) console.log(`  ${line}`);
  return checklist;
}

/**
 * What a strict checklist found missing, printed to stderr as the run's failure: true when the
 * run must fail for it.
 */
export function failOnChecklist(results: RunResults): boolean {
  const failures = strictFailures(results.checklist ?? []);
  if (failures.length === 0) return false;
  console.error(
    `\nnew-flow checklist failed (FLOW_CHECKLIST=strict, checklist_failed): ${failures.length} point${failures.length === 1 ? "" : "s"} not proved:\n${failures.map((failure) => `  - ${failure}`).join("\n")}\nAdd the scenario turns or expectations named, or run without FLOW_CHECKLIST=strict to see the table only.`,
  );
  return true;
}
