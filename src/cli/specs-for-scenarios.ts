// Light imports only: run-specs compiles this graph before any test process starts.
import { envPrefixOf } from "../engine/env-prefix.ts";
import { closestName } from "../testing/scenario/closest-name.ts";
import { discoverSelected, scenarioHeaderOf } from "../testing/scenario/scenario-discovery.ts";
import { flowsDescribedBy } from "../testing/node-test/scenario-specs.ts";

/**
 * The specs that run the scenarios at `scenarioPaths`: those among `files` that describe the
 * scenarios of those files' flows. A scenario whose flow no spec describes would be run by none,
 * so that stops the run, saying which spec to add or which flow was meant.
 */
export function specsForScenarios(files: string[], scenarioPaths: string[]): string[] {
  const described = new Map(files.map((file) => [file, flowsDescribedBy(file)]));
  const runs = [...new Set([...described.values()].flat())];
  const found = discoverSelected(scenarioPaths);
  if (found.files.length + found.misnamed.length === 0) {
    console.error(`run-specs: no *.scenario.json under ${scenarioPaths.join(", ")}; nothing to run.`);
    process.exit(1);
  }
  const flowNames = found.files.map((file) => scenarioHeaderOf(file)?.flowName);
  let unrun = 0;
  found.files.forEach((file, index) => {
    const flowName = flowNames[index];
    if (typeof flowName !== "string" || runs.includes(flowName)) return;
    unrun += 1;
    const guess = closestName(flowName, runs);
    console.error(
      `run-specs: ${file} has "flowName": "${flowName}", but no spec given runs ${flowName}'s scenarios (they run ${runs.join(", ") || "no flow's"})` +
        `${guess ? `; did you mean ${guess}?` : "."} Fix the flowName, or add test/flows/${kebabCase(flowName)}.spec.ts calling describeFlowScenarios("${flowName}", { flows: registeredFlows }).`,
    );
  });
  if (unrun) process.exit(1);
  // A file that is not JSON, has no flowName, is misnamed or missing is every flow spec's to
  // report, with the loader's problems; the others need only their own flows' specs.
  const unattributed = found.missing.length + found.misnamed.length > 0 || flowNames.some((name) => typeof name !== "string");
  return files.filter((file) => described.get(file)!.some((flow) => unattributed || flowNames.includes(flow)));
}

/** `HomeInsuranceFlow` → `home-insurance-flow`, as the flow's spec file is named. */
function kebabCase(name: string): string {
  return envPrefixOf(name).toLowerCase().replaceAll("_", "-");
}
