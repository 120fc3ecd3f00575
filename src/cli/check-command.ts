import { derivedConfig } from "../config.ts";
import { commandEnvironment } from "./command-config.ts";
import { isFlowcheckError } from "../errors.ts";
import { loadScenario } from "../testing/scenario/load-scenario.ts";
import type { FlowOutline } from "../testing/scenario/meaning-problems.ts";
import type { FlowEntry } from "../engine/index.ts";
import {
  discoverScenarios,
  discoverSelected,
  scenarioHeaderOf,
  type ScenarioDiscovery,
} from "../testing/scenario/scenario-discovery.ts";
import { chooseTarget } from "../testing/target/choose-target.ts";
import { flowOutlineOf } from "../testing/target/flow-outline-of.ts";
import type { GraphsAsked } from "../testing/target/langgraph/langgraph-step-names.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { loadTargetConfig, type TargetConfig } from "../testing/target/target-config.ts";
import { answerHelp } from "./answer-help.ts";

const USAGE = `Usage: flowcheck check [<file or folder>...]

Checks scenario files against scenarios/scenario.schema.json and the flows flowcheck.config.json
names in "flows", without running a turn, and lists every problem of each file at once.
Without a path it checks every *.scenario.json under scenarios/, at any depth; a folder is
checked the same way. A JSON file there that looks like a scenario but is not named
*.scenario.json is reported with the rename; any other JSON file there (a schema, a cassette, data)
is listed as skipped, saying what it is. A scenario of a flow served by a target of
flowcheck.config.json (its "target", or FLOW_TARGET) is checked against the steps that target
lists, asked of it when it is a LangGraph server; one that cannot be reached is said so, and its
steps are then not checked. Exits 1 when any file is not valid.`;

/** What a scenario's flow is checked against: the project's flows, else the target serving it. */
interface Servers {
  flows: readonly FlowEntry["flow"][];
  targets: TargetConfig | undefined;
  flowTarget: string | undefined;
  /** The LangGraph graphs asked for their nodes by this command already: each is asked once. */
  graphsAsked: GraphsAsked;
}

/**
 * The outline of `file`'s flow when a target serves it rather than one of the project's flows, and what to
 * say of it: which target, and that its steps went unchecked when it could not be asked.
 */
async function targetOutline(
  file: string,
  { flows, targets, flowTarget, graphsAsked }: Servers,
): Promise<{ outline?: FlowOutline; note: string }> {
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
    return {
      outline: await flowOutlineOf(chosen.name, chosen.entry, flowName, graphsAsked),
      note: `; target ${chosen.name}`,
    };
  } catch (error) {
    if (!isFlowcheckError(error, "target_unreachable")) throw error;
    const servedBy = `${flowName} of target ${chosen.name} (${chosen.entry.baseUrl})`;
    return {
      outline: { name: flowName, stepNames: undefined, servedBy, kind: chosen.entry.kind },
      note: `; target ${chosen.name}, not reachable, so its step names were not checked: ${error.message}`,
    };
  }
}

/** Prints what `found` holds besides scenario files to check; how many of them are failures. */
function unloadable(found: ScenarioDiscovery): number {
  for (const missing of found.missing) console.log(`fail  ${missing}: no such file or folder`);
  for (const other of found.others) console.log(`skip  ${other.file}: ${other.why}`);
  for (const file of found.misnamed) {
    console.log(
      `fail  ${file.file} looks like a scenario but is not named *.scenario.json, so no command loads it; rename it to ${file.rename}`,
    );
  }
  return found.missing.length + found.misnamed.length;
}

/** Checks one scenario file, printing its line; whether it is valid. */
async function checkFile(file: string, servers: Servers): Promise<boolean> {
  try {
    const { outline, note } = await targetOutline(file, servers);
    const { scenario } = loadScenario(file, servers.flows, outline ? { outline } : {});
    const cases = scenario.cases ? `, ${scenario.cases.length} cases` : "";
    const turns = `${scenario.turns.length} ${scenario.user ? "opening " : ""}turns`;
    const user = scenario.user ? `, a simulated user (${scenario.user.style ?? "cooperative"})` : "";
    console.log(`ok    ${file} (${scenario.flowName}, ${turns}${user}${cases}${note})`);
    return true;
  } catch (error) {
    // A scenario's problems and its target's choice name the file already; a server's answer does not.
    const message = (error as Error).message;
    console.log(`fail  ${message.startsWith(file) ? message : `${file}: ${message}`}`);
    return false;
  }
}

/** `flowcheck check [<file or folder>...]`: 0 when every scenario file found is valid, else 1. */
export async function checkCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const found = args.length ? discoverSelected(args) : discoverScenarios("scenarios");
  let servers: Servers;
  try {
    const flows = (await loadProjectFlows()).map((entry) => entry.flow);
    const env = commandEnvironment();
    servers = {
      flows,
      targets: loadTargetConfig(process.cwd(), env),
      flowTarget: derivedConfig(env).flowTarget,
      graphsAsked: new WeakMap(),
    };
  } catch (error) {
    console.log(`fail  ${(error as Error).message}`);
    return 1;
  }
  let invalid = unloadable(found);
  for (const file of found.files) if (!(await checkFile(file, servers))) invalid += 1;
  const checked = found.files.length + found.misnamed.length + found.missing.length;
  if (checked === 0) console.log(`no scenario file under ${args.join(", ") || "scenarios/"}`);
  console.log(`${checked - invalid} valid, ${invalid} invalid`);
  return invalid || checked === 0 ? 1 : 0;
}
