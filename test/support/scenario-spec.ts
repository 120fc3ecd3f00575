import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");

/**
 * Writes `<dir>/<name>.spec.ts`, a spec that runs `scenarioFile` alone (`files`) with describeFlowScenarios and the
 * BasicFlow fixture (transcripts in `artifactsDir`, else the default), for a test to run in a child process.
 */
export function writeScenarioSpec(dir: string, name: string, scenarioFile: string, artifactsDir?: string): string {
  const spec = join(dir, `${name}.spec.ts`);
  const files = `files: [${JSON.stringify(scenarioFile)}]`;
  const options =
    artifactsDir === undefined
      ? `{ flows: [basicFlowEntry], ${files} }`
      : `{ flows: [basicFlowEntry], ${files}, artifactsDir: ${JSON.stringify(artifactsDir)} }`;
  writeFileSync(
    spec,
    [
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
      `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
      "",
      `describeFlowScenarios("BasicFlow", ${options});`,
      "",
    ].join("\n"),
  );
  return spec;
}

/**
 * Writes `<dir>/<name>.spec.ts`, a spec that runs every BasicFlow scenario under `scenariosDir`
 * with describeFlowScenarios and the BasicFlow fixture (artifacts in `<dir>/artifacts`), for a test
 * to run in a child process.
 */
export function writeFlowSpec(
  dir: string,
  name: string,
  scenariosDir: string,
  artifactsDir = join(dir, "artifacts"),
): string {
  const spec = join(dir, `${name}.spec.ts`);
  const options = `{ flows: [basicFlowEntry], dir: ${JSON.stringify(scenariosDir)}, artifactsDir: ${JSON.stringify(artifactsDir)} }`;
  writeFileSync(
    spec,
    [
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
      `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
      `describeFlowScenarios("BasicFlow", ${options});`,
      "",
    ].join("\n"),
  );
  return spec;
}
