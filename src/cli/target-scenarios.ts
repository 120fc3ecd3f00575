// The runner's own spec module: flowcheck test gives it to node:test's run() when the scenarios it is
// asked for include some that no flow spec describes but a target of flowcheck.config.json serves
// (their `target`, or FLOW_TARGET) or a flow of the project's runs (the config's "flows"). It
// describes those files, which the run's scope names.
import { currentRun } from "../testing/report/current-run.ts";
import { describeTargetScenarios } from "../testing/node-test/describe-target-scenarios.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";

const run = currentRun();
await describeTargetScenarios(run.scope.targetScenarios ?? [], {
  flows: await loadProjectFlows(),
  run,
});
