import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./temp-path.ts";

const FIXTURES = resolve(import.meta.dirname, "..", "fixtures", "flows", "basic");

/**
 * A project in a temp folder on flowcheck's engine, for `flowcheck test` in a child process: its
 * flows module registers the fixture BasicFlow (with its scripted user unless `withUser` is false),
 * and `scenarios/` holds each of `scenarios` under its file name.
 */
export async function basicFlowProject(
  scenarios: Record<string, unknown>,
  withUser = true,
): Promise<{ path: string; remove: () => void }> {
  const dir = await tempDir("basic-flow-project");
  mkdirSync(join(dir.path, "scenarios"));
  writeFileSync(
    join(dir.path, "flows.ts"),
    [
      `import { basicFlowEntry } from ${JSON.stringify(join(FIXTURES, "basic-flow-entry.ts"))};`,
      `import { basicFlowUser } from ${JSON.stringify(join(FIXTURES, "basic-flow-user.ts"))};`,
      `export const registeredFlows = [${withUser ? "{ ...basicFlowEntry, user: basicFlowUser }" : "basicFlowEntry"}];`,
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ flows: "./flows.ts" }));
  for (const [file, scenario] of Object.entries(scenarios))
    writeFileSync(join(dir.path, "scenarios", file), JSON.stringify(scenario));
  return dir;
}
