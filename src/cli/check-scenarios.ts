import { registeredFlows } from "../flows/index.ts";
import { isFlowcheckError } from "../errors.ts";
import { loadScenario } from "../testing/scenario/load-scenario.ts";
import { discoverScenarios, discoverSelected } from "../testing/scenario/scenario-discovery.ts";
import { answerHelp } from "./answer-help.ts";

answerHelp(`Usage: npm run scenarios:check [-- <file or folder>...]

Checks scenario files against scenarios/scenario.schema.json and the registered flows
(src/flows/index.ts) without running a turn, and lists every problem of each file at once.
Without a path it checks every *.scenario.json under scenarios/, at any depth; a folder is
checked the same way. A JSON file there that looks like a scenario but is not named
*.scenario.json is reported with the rename. Exits 1 when any file is not valid.`);

const paths = process.argv.slice(2);
const found = paths.length ? discoverSelected(paths) : discoverScenarios("scenarios");
const flows = registeredFlows.map((entry) => entry.flow);
let invalid = 0;
for (const missing of found.missing) {
  invalid += 1;
  console.log(`fail  ${missing}: no such file or folder`);
}
for (const file of found.misnamed) {
  invalid += 1;
  console.log(
    `fail  ${file.file} looks like a scenario but is not named *.scenario.json, so no command loads it; rename it to ${file.rename}`,
  );
}
for (const file of found.files) {
  try {
    const { scenario } = loadScenario(file, flows);
    const cases = scenario.cases ? `, ${scenario.cases.length} cases` : "";
    console.log(`ok    ${file} (${scenario.flowName}, ${scenario.turns.length} turns${cases})`);
  } catch (error) {
    invalid += 1;
    console.log(
      isFlowcheckError(error, "scenario_invalid") ? `fail  ${error.message}` : `fail  ${file}: ${String(error)}`,
    );
  }
}
const checked = found.files.length + found.misnamed.length + found.missing.length;
if (checked === 0) console.log(`no scenario file under ${paths.join(", ") || "scenarios/"}`);
console.log(`${checked - invalid} valid, ${invalid} invalid`);
process.exit(invalid || checked === 0 ? 1 : 0);
