import { demoFlows } from "../flows/index.ts";
import { isFlowcheckError } from "../errors.ts";
import { loadScenario } from "../testing/load-scenario.ts";
import { scenarioFiles } from "../testing/describe-scenarios.ts";

// Checks scenario files against their schema and the registered flows without running a turn.
const files = process.argv.length > 2 ? process.argv.slice(2) : scenarioFiles("scenarios");
let invalid = 0;
for (const file of files) {
  try {
    const { scenario } = loadScenario(file, demoFlows.map((entry) => entry.flow));
    const cases = scenario.cases ? `, ${scenario.cases.length} cases` : "";
    console.log(`ok    ${file} (${scenario.flowName}, ${scenario.turns.length} turns${cases})`);
  } catch (error) {
    invalid += 1;
    console.log(isFlowcheckError(error, "scenario_invalid") ? `fail  ${error.message}` : `fail  ${file}: ${String(error)}`);
  }
}
console.log(`${files.length - invalid} valid, ${invalid} invalid`);
process.exit(invalid ? 1 : 0);
