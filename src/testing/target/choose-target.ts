import { FlowcheckError } from "../../errors.ts";
import { closestName } from "../scenario/closest-name.ts";
import { shownPath } from "../scenario/scenario-location.ts";
import { TARGET_CONFIG_FILE, type TargetConfig, type TargetEntry } from "./target-config.ts";

/**
 * The target a scenario is played against: its own `target`, else `FLOW_TARGET`'s, else none
 * (undefined: the app in this process, or the server at FLOW_BASE_URL, as without a config).
 * `where` names the scenario, for messages. A name the config lacks, or any name without a
 * config, is a `target_config_invalid` error saying what to write.
 *
 * @example
 * chooseTarget(config, loaded.scenario.target, config.flowTarget, loaded.file); // { name: "staging", entry: {...} }
 */
export function chooseTarget(
  config: TargetConfig | undefined,
  scenarioTarget: string | undefined,
  flowTarget: string | undefined,
  where: string,
): { name: string; entry: TargetEntry } | undefined {
  const name = scenarioTarget ?? flowTarget;
  if (name === undefined) return undefined;
  const named =
    scenarioTarget === undefined
      ? `FLOW_TARGET=${name} (the target of ${where}, which names none)`
      : `${where}: "target": "${name}"`;
  if (config === undefined) {
    throw new FlowcheckError(
      "target_config_invalid",
      `${named} names a target, but there is no ${TARGET_CONFIG_FILE}; create one at the project root with "targets": { "${name}": { "kind": …, "baseUrl": … } } (its schema is flowcheck.config.schema.json).`,
    );
  }
  const entry = Object.hasOwn(config.targets, name) ? config.targets[name] : undefined;
  if (entry) return { name, entry };
  const names = Object.keys(config.targets);
  const guess = closestName(name, names);
  const known = names.length ? `its targets are ${names.join(", ")}` : "it has no targets";
  throw new FlowcheckError(
    "target_config_invalid",
    `${named} names no target of ${shownPath(config.path)}${guess ? `; did you mean "${guess}"?` : ""} (${known}); ` +
      `use one of those names, or add "${name}" to its "targets".`,
  );
}
