import { delimiter } from "node:path";
import { runNode, type ChildRun } from "./child-run.ts";

/**
 * Runs a flow suite (e.g. `test/flows/basic-flow.spec.ts`) in a child process on just the scenario
 * files named, as `npm run test:flows -- <files>` does, with TAP output.
 */
export function runFlowSuite(spec: string, scenarioFiles: readonly string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode(["--import", "tsx", "--test", "--test-reporter=tap", spec], { ...env, FLOW_SCENARIOS: scenarioFiles.join(delimiter) });
}
