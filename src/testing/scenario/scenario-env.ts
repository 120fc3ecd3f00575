import { RUN_VARIABLES } from "../../config.ts";
import { envPrefixOf } from "../../engine/env-prefix.ts";
import type { FlowDefinition } from "../../engine/flow.ts";
import { flowFamily } from "../../engine/flow-family.ts";
import { closestName } from "./closest-name.ts";
import { invalidScenario } from "./invalid-scenario.ts";
import type { LoadedScenario } from "./scenario.ts";

// A scenario file is data that many hands write (product people, QA, a recorder), and a scheduled
// run holds the provider's key. So a scenario's `env` configures the flow and never the run: were
// it to set OPENAI_BASE_URL, the run would send the key wherever the file says.

/**
 * The run settings a scenario's `env` may set: they carry no credential and name no destination.
 * Every other variable of the run is refused, so one added later is refused until it is listed
 * here (and in docs/reference/scenario-files.md, "What a scenario's env may set").
 */
export const SCENARIO_RUN_SETTINGS: readonly string[] = Object.freeze(["FLOW_TURN_TIMEOUT_MS", "FLOW_PASS_RATE"]);

/** The run's own namespaces, whatever a flow is called: a flow named `Openai` does not own `OPENAI_…`. */
export const RESERVED_PREFIXES: readonly string[] = Object.freeze([
  "FLOW_",
  "FLOWCHECK_",
  "OPENAI_",
  "JUDGE_",
  "USER_",
]);

// `<FLOW>_STRICT_CHECKLIST` is read by the flowcheck test process from its own environment: in a
// scenario it would take no effect, so it is refused like the run's other settings.
const RUN_SUFFIXES: readonly string[] = ["_STRICT_CHECKLIST"];

/** The pins every flow has, as `<FLOW>_<suffix>`: its clock and its scripted-model flag. */
const PIN_SUFFIXES: readonly string[] = ["CURRENT_DATE", "USE_SCRIPTED_MODEL"];

/** Whether `name` is the run's and never a scenario's to set (see `SCENARIO_RUN_SETTINGS`). */
export function isReservedVariable(name: string): boolean {
  if (SCENARIO_RUN_SETTINGS.includes(name)) return false;
  return (
    RUN_VARIABLES.includes(name) ||
    RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    RUN_SUFFIXES.some((suffix) => name.endsWith(suffix))
  );
}

/** The prefixes of the variables a scenario's flow owns: its own and its child flows'. */
function ownPrefixes(flowName: string, flow: FlowDefinition | undefined): string[] {
  return flow ? flowFamily(flow).map((member) => member.envPrefix) : [envPrefixOf(flowName)];
}

/** What a scenario's `env` takes, in words, for the messages. */
function whatEnvTakes(prefixes: readonly string[]): string {
  const owned = prefixes.map((prefix) => `${prefix}_…`).join(" and ");
  return (
    `A scenario's env takes ${owned} (the flow's own settings and pins, such as ${prefixes[0]}_CURRENT_DATE), ` +
    `${SCENARIO_RUN_SETTINGS.join(" and ")}.`
  );
}

function problemOf(key: string, flowName: string, prefixes: readonly string[]): string | undefined {
  if (SCENARIO_RUN_SETTINGS.includes(key)) return undefined;
  const owner = prefixes.find((prefix) => key.startsWith(`${prefix}_`) && key.length > prefix.length + 1);
  const reserved = isReservedVariable(key);
  if (owner && !reserved) return undefined;
  const allowed = [
    ...SCENARIO_RUN_SETTINGS,
    ...prefixes.flatMap((prefix) => PIN_SUFFIXES.map((suffix) => `${prefix}_${suffix}`)),
  ];
  const guess = closestName(key, allowed);
  const didYouMean = guess ? ` Did you mean ${guess}?` : "";
  if (!reserved)
    return (
      `env.${key}: not a setting of ${flowName}; ` +
      `a variable for anything but the flow belongs in the run's environment. ${whatEnvTakes(prefixes)}${didYouMean}`
    );
  // A flow whose name puts its variables in the run's namespace (a flow `Flow`, `Openai`, `FlowChart`) does not own them.
  const namespace = owner
    ? ` (${flowName}'s variables begin with ${owner}_, inside the run's own namespace, so the flow does not own them)`
    : "";
  return (
    `env.${key}: a run setting${namespace}, which belongs in the run's environment ` +
    `(\`${key}=… npm run test:flows\`), not in a scenario: ` +
    `no scenario file chooses the model, a credential, or where requests and sessions go. ${whatEnvTakes(prefixes)}${didYouMean}`
  );
}

/**
 * Each key of a scenario's `env` that the scenario may not set, as `env.<KEY>: …` problems: a run
 * setting (refused whatever the flow is called), or a variable that is not the flow's own.
 */
export function scenarioEnvProblems(
  env: Readonly<Record<string, unknown>> | undefined,
  flowName: string | undefined,
  flow: FlowDefinition | undefined,
): string[] {
  if (env === undefined || flowName === undefined) return [];
  const prefixes = ownPrefixes(flowName, flow);
  return Object.keys(env).flatMap((key) => problemOf(key, flowName, prefixes) ?? []);
}

/**
 * A scenario's `env`, refused whole when it sets any run setting: the loader has refused such a
 * file already, and this holds for a scenario made in code too, so no run is ever configured
 * from one. It needs no flow: what it refuses is the run's whatever the flow is called.
 */
export function scenarioEnvOf(loaded: LoadedScenario): Readonly<Record<string, string>> {
  const env = loaded.scenario.env ?? {};
  const reserved = Object.keys(env).filter(isReservedVariable);
  if (reserved.length) {
    const problems = reserved.map(
      (key) => problemOf(key, loaded.scenario.flowName, [envPrefixOf(loaded.scenario.flowName)])!,
    );
    throw invalidScenario(loaded.file, problems);
  }
  return env;
}

/** The run settings of a scenario's `env` alone: what reaches the runner when the app runs elsewhere. */
export function scenarioRunSettingsOf(loaded: LoadedScenario): Readonly<Record<string, string>> {
  return Object.fromEntries(
    Object.entries(scenarioEnvOf(loaded)).filter(([key]) => SCENARIO_RUN_SETTINGS.includes(key)),
  );
}
