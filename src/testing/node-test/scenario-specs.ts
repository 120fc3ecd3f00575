import { readFileSync } from "node:fs";

const DESCRIBE = /describeFlowScenarios\(\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]/g;

/**
 * The flows whose scenarios a spec file runs: each `describeFlowScenarios("<Flow>", …)` in its
 * source, the flow named as a string literal. `npm run test:flows -- <scenario paths>` runs just
 * these specs, so it reads them without importing them.
 */
export function flowsDescribedBy(specFile: string): string[] {
  return [...readFileSync(specFile, "utf8").matchAll(DESCRIBE)].map((match) => match[1]!);
}
