import { loadConfig } from "../config.ts";
import { registeredFlows } from "../flows/index.ts";
import { isFlowcheckError } from "../errors.ts";
import { loadScenario } from "../testing/scenario/load-scenario.ts";
import type { FlowOutline } from "../testing/scenario/meaning-problems.ts";
import { discoverScenarios, discoverSelected, scenarioHeaderOf } from "../testing/scenario/scenario-discovery.ts";
import { chooseTarget } from "../testing/target/choose-target.ts";
import { flowOutlineOf } from "../testing/target/flow-outline-of.ts";
import { loadTargetConfig, type TargetConfig } from "../testing/target/target-config.ts";
import { answerHelp } from "./answer-help.ts";

answerHelp(`Usage: npm run scenarios:check [-- <file or folder>...]

Checks scenario files against scenarios/scenario.schema.json and the registered flows
(src/flows/index.ts) without running a turn, and lists every problem of each file at once.
Without a path it checks every *.scenario.json under scenarios/, at any depth; a folder is
checked the same way. A JSON file there that looks like a scenario but is not named
*.scenario.json is reported with the rename; any other JSON file there (a schema, a cassette, data)
is listed as skipped, saying what it is. A scenario of a flow served by a target of
flowcheck.config.json (its "target", or FLOW_TARGET) is checked against the steps that target
lists, asked of it when it is a LangGraph server; one that cannot be reached is said so, and its
steps are then not checked. Exits 1 when any file is not valid.`);

const paths = process.argv.slice(2);
const found = paths.length ? discoverSelected(paths) : discoverScenarios("scenarios");
const flows = registeredFlows.map((entry) => entry.flow);
let targets: TargetConfig | undefined;
let flowTarget: string | undefined;
try {
  targets = loadTargetConfig(process.cwd(), process.env);
  flowTarget = loadConfig().flowTarget;
} catch (error) {
  console.log(`fail  ${(error as Error).message}`);
  process.exit(1);
}

/**
 * The outline of `file`'s flow when a target serves it rather than a registered flow, and what to
 * say of it: which target, and that its steps went unchecked when it could not be asked.
 */
async function targetOutline(file: string): Promise<{ outline?: FlowOutline; note: string }> {
  const header = scenarioHeaderOf(file);
  const flowName = typeof header?.flowName === "string" ? header.flowName : undefined;
  if (flowName === undefined || flows.some((flow) => flow.name === flowName)) return { note: "" };
  const chosen = chooseTarget(
    targets,
    typeof header?.target === "string" ? header.target : undefined,
    flowTarget,
    file,
  );
  if (!chosen) return { note: "" };
  try {
    return { outline: await flowOutlineOf(chosen.name, chosen.entry, flowName), note: `; target ${chosen.name}` };
  } catch (error) {
    if (!isFlowcheckError(error, "target_unreachable")) throw error;
    const servedBy = `${flowName} of target ${chosen.name} (${chosen.entry.baseUrl})`;
    return {
      outline: { name: flowName, stepNames: undefined, servedBy, kind: chosen.entry.kind },
      note: `; target ${chosen.name}, not reachable, so its step names were not checked: ${error.message}`,
    };
  }
}

let invalid = 0;
for (const missing of found.missing) {
  invalid += 1;
  console.log(`fail  ${missing}: no such file or folder`);
}
for (const other of found.others) console.log(`skip  ${other.file}: ${other.why}`);
for (const file of found.misnamed) {
  invalid += 1;
  console.log(
    `fail  ${file.file} looks like a scenario but is not named *.scenario.json, so no command loads it; rename it to ${file.rename}`,
  );
}
for (const file of found.files) {
  try {
    const { outline, note } = await targetOutline(file);
    const { scenario } = loadScenario(file, flows, outline ? { outline } : {});
    const cases = scenario.cases ? `, ${scenario.cases.length} cases` : "";
    console.log(`ok    ${file} (${scenario.flowName}, ${scenario.turns.length} turns${cases}${note})`);
  } catch (error) {
    invalid += 1;
    // A scenario's problems and its target's choice name the file already; a server's answer does not.
    const message = (error as Error).message;
    console.log(`fail  ${message.startsWith(file) ? message : `${file}: ${message}`}`);
  }
}
const checked = found.files.length + found.misnamed.length + found.missing.length;
if (checked === 0) console.log(`no scenario file under ${paths.join(", ") || "scenarios/"}`);
console.log(`${checked - invalid} valid, ${invalid} invalid`);
process.exit(invalid || checked === 0 ? 1 : 0);
