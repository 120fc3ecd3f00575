import { existsSync } from "node:fs";
import { closestName } from "../testing/scenario/closest-name.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { flowSpecName, specsOfFlows } from "../testing/node-test/flow-spec-name.ts";
import type { PlanProblem } from "./plan-problem.ts";

/**
 * The specs that run the scenarios at `scenarioPaths`: those among `files` named after the flows
 * of those files (`InvoiceFlow` → `invoice-flow.spec.ts`). A scenario whose flow has no spec
 * among them is played by the runner's own module: against its target (its `target`, else
 * `flowTarget`), or in process when its flow is one of `projectFlows` (the flows
 * flowcheck.config.json names). One with neither would be run by none, so that stops the run,
 * saying which spec to add or which flow was meant (a `PlanProblem`, exit code 1); so does a path
 * with no scenario file. A file whose flow cannot be read, when no
 * spec would report it, is the runner's module's too, which reports why it does not load. The
 * files are found, and their headers read, through the run's `catalog`.
 */
export function specsForScenarios(
  files: string[],
  scenarioPaths: string[],
  flowTarget?: string,
  projectFlows: readonly string[] = [],
  catalog: ScenarioCatalog = new ScenarioCatalog(),
): { specs: string[]; targetScenarios: string[] } | PlanProblem {
  const found = catalog.selected(scenarioPaths);
  if (found.files.length + found.misnamed.length === 0) {
    return {
      problem: [`flowcheck test: no *.scenario.json under ${scenarioPaths.join(", ")}; nothing to run.`],
      exitCode: 1,
    };
  }
  const headers = found.files.map((file) => catalog.headerOf(file));
  const flowNames = headers.map((header) => header?.flowName);
  const hasSpec = (name: string) => specsOfFlows(files, [name]).length > 0;
  const runs = [...new Set(flowNames.filter((name): name is string => typeof name === "string" && hasSpec(name)))];
  // A scenario no spec describes is played against its target, or the project's flow it names: no spec is needed.
  const targetScenarios = found.files.filter((_, index) => {
    const flowName = flowNames[index];
    const target = headers[index]?.target ?? flowTarget;
    if (typeof flowName !== "string" || runs.includes(flowName)) return false;
    return typeof target === "string" || projectFlows.includes(flowName);
  });
  const unrun = found.files.flatMap((file, index) => {
    const flowName = flowNames[index];
    if (typeof flowName !== "string" || runs.includes(flowName) || targetScenarios.includes(file)) return [];
    const guess = closestName(flowName, runs);
    return [
      `flowcheck test: ${file} has "flowName": "${flowName}", but no spec given runs ${flowName}'s scenarios (they run ${runs.join(", ") || "no flow's"})` +
        `${guess ? `; did you mean ${guess}?` : "."} Fix the flowName, or add test/flows/${flowSpecName(flowName)} calling describeFlowScenarios(${flowName}, { flows: registeredFlows }), or play it against a target of flowcheck.config.json ("target" in the file, or FLOW_TARGET), or, for a flow of your own, name the module that exports it in flowcheck.config.json's "flows".`,
    ];
  });
  if (unrun.length) return { problem: unrun, exitCode: 1 };
  // A file that is not JSON, has no flowName, is misnamed or missing is every flow spec's to
  // report, with the loader's problems: the specs of every flow with scenarios there or in scenarios/.
  const unattributed =
    found.missing.length + found.misnamed.length > 0 || flowNames.some((name) => typeof name !== "string");
  if (!unattributed) return { specs: specsOfFlows(files, flowNames), targetScenarios };
  const elsewhere = existsSync("scenarios")
    ? catalog.under("scenarios").files.map((file) => catalog.headerOf(file)?.flowName)
    : [];
  const misnamed = found.misnamed.map((file) => file.flowName);
  const specs = specsOfFlows(files, [...flowNames, ...misnamed, ...elsewhere]);
  // With no spec to report a file whose flow cannot be read (not JSON, no flowName), the runner's
  // own module does: a file that does not load is its one failing test, saying why.
  const unread = specs.length ? [] : found.files.filter((_, index) => typeof flowNames[index] !== "string");
  return { specs, targetScenarios: [...targetScenarios, ...unread] };
}
