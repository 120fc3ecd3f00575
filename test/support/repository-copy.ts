import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runCommand, type ChildRun } from "./child-run.ts";
import { tempDir } from "./temp-path.ts";

// A checkout as a team has it once the README's "Your own flows, without the demos" has run: the
// demo flows unregistered (a checkout that deleted them is the same), the team's flows in
// src/flows/team-flows.ts, each with the flow spec the README shows. A spec that runs a documented
// command literally (npm run scenario:record -- BasicFlow, npm run test:flows -- <file>) runs it
// there, on fixture flows, and never writes the real src/flows or scenarios/.

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface RepositoryCopy {
  path: string;
  /** `command <args>` in the copy, with the environment `runCommand` gives and no checklist gate of the caller's. */
  run(command: string, args: string[], env?: Record<string, string>): Promise<ChildRun>;
  /** `scenarios/<name>.scenario.json`, relative to the copy, as the commands print it: a file of the copy's scenarios/. */
  scenarioFile(name: string): string;
  /** `npm run test:flows -- <scenario file> --test-reporter=tap` in the copy: the file's flow suite. */
  testFlows(scenarioFile: string, env?: Record<string, string>): Promise<ChildRun>;
  remove(): void;
}

/** `basicFlowEntry` → `BasicFlow`; `BasicFlow` → `basic-flow`. */
const flowNameOf = (entry: string) => entry[0]!.toUpperCase() + entry.slice(1).replace(/Entry$/, "");
const kebabOf = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

/**
 * A copy of the repository's code in a new folder under test/.tmp, with the project's node_modules
 * linked in, the demo flows unregistered and `teamFlows` (exports of test/fixtures/flows/index.ts,
 * e.g. `basicFlowEntry`) registered as the team's flows, each with its `test/flows/<flow>.spec.ts`.
 */
export async function repositoryCopy(prefix: string, teamFlows: readonly string[] = []): Promise<RepositoryCopy> {
  const dir = await tempDir(prefix);
  const path = dir.path;
  const parts = [
    "src",
    "package.json",
    "tsconfig.json",
    "tsconfig.contract.json",
    "scenarios/scenario.schema.json",
    "flowcheck.config.schema.json",
    "flowcheck.config.json",
    ...(teamFlows.length ? ["test/fixtures/flows"] : []),
  ];
  for (const part of parts) cpSync(join(ROOT, part), join(path, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(path, "node_modules"), "dir");
  const flows = join(path, "src", "flows");
  writeFileSync(join(flows, "index.ts"), readFileSync(join(flows, "index.ts"), "utf8").replace("...demoFlows, ", ""));
  // Written whole, so a checkout that already registers flows of its own gets the same copy.
  const imports = teamFlows.length
    ? `import { ${teamFlows.join(", ")} } from "../../test/fixtures/flows/index.ts";\n`
    : "";
  writeFileSync(
    join(flows, "team-flows.ts"),
    `import type { FlowEntry } from "../engine/index.ts";\n${imports}\nexport const teamFlows: readonly FlowEntry[] = Object.freeze([${teamFlows.join(", ")}]);\n`,
  );
  if (teamFlows.length) mkdirSync(join(path, "test", "flows"), { recursive: true });
  for (const flowName of teamFlows.map(flowNameOf)) {
    writeFileSync(
      join(path, "test", "flows", `${kebabOf(flowName)}.spec.ts`),
      `import { registeredFlows } from "../../src/flows/index.ts";\nimport { describeFlowScenarios } from "../../src/testing/index.ts";\n\ndescribeFlowScenarios(${JSON.stringify(flowName)}, { flows: registeredFlows });\n`,
    );
  }
  const run = (command: string, args: string[], env: Record<string, string> = {}) =>
    runCommand(command, args, { FLOW_CHECKLIST: "", ...env }, undefined, path);
  return {
    path,
    run,
    scenarioFile: (name) => join("scenarios", `${name}.scenario.json`),
    // TAP by name: from Node 23 on, the default reporter is spec even when the output is a pipe.
    testFlows: (scenarioFile, env) =>
      run("npm", ["run", "-s", "test:flows", "--", scenarioFile, "--test-reporter=tap"], env),
    remove: dir.remove,
  };
}
