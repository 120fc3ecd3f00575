import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FlowcheckError } from "../../errors.ts";

/** A flow's name and the names derived from it, as the scaffold writes them. */
export interface FlowNames {
  /** `TeaFlow` */
  flow: string;
  /** `tea`: the folder under `src/flows/` */
  folder: string;
  /** `tea-flow`: the scenario, spec and file-name stem */
  kebab: string;
  /** `teaFlow`: the prefix of its exported constants */
  camel: string;
}

// The longest name whose scaffold Biome leaves as written: the longest line it writes (ChoiceStep's
// saveChoice signature) then just fits biome.json's 120 columns, and no line passes the 140 that
// test/formatting.spec.ts counts.
export const LONGEST_FLOW_NAME = 38;

const RULE =
  "a flow name is PascalCase letters and digits ending in Flow, with something before it, " +
  `at most ${LONGEST_FLOW_NAME} characters, e.g. TeaFlow or OrderStatusFlow`;

function kebabOf(pascal: string): string {
  return pascal.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** The names for `flow`, or `flow_name_invalid` with the rule. */
export function flowNamesOf(flow: string | undefined): FlowNames {
  if (!flow || !/^[A-Z][A-Za-z0-9]*Flow$/.test(flow) || flow === "Flow" || flow.length > LONGEST_FLOW_NAME) {
    throw new FlowcheckError(
      "flow_name_invalid",
      `${JSON.stringify(flow ?? "")} is not a flow name: ${RULE}. Run npm run new:flow -- TeaFlow.`,
    );
  }
  const kebab = kebabOf(flow);
  return { flow, folder: kebab.replace(/-flow$/, ""), kebab, camel: flow[0]!.toLowerCase() + flow.slice(1) };
}

function sourcesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Refuses a name a flow under `src/flows/` already defines (`name: "TeaFlow"`), or whose files exist. */
export function assertNameFree(root: string, names: FlowNames, paths: readonly string[]): void {
  const definedIn = sourcesUnder(join(root, "src", "flows")).find((file) =>
    readFileSync(file, "utf8").includes(`name: ${JSON.stringify(names.flow)}`),
  );
  if (definedIn) {
    throw new FlowcheckError(
      "flow_name_taken",
      `${names.flow} is taken: ${definedIn} defines a flow of that name. Choose another name (${RULE}).`,
    );
  }
  const existing = paths.filter((path) => existsSync(join(root, path)));
  if (existing.length) {
    throw new FlowcheckError(
      "flow_name_taken",
      `${names.flow} is taken: ${existing.join(", ")} already exist${existing.length === 1 ? "s" : ""}. Choose another name, or remove them first.`,
    );
  }
}
