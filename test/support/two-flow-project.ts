import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./child-run.ts";

const from = (path: string) => JSON.stringify(join(ROOT, path));

const turns = (step: string, completes: boolean) => [
  { label: "first", input: "hello", expectedActiveStep: step },
  { label: "second", input: "bye", expectedActiveStep: step, ...(completes ? { completed: true } : {}) },
];

/**
 * A project of two flows' specs in `root` (`specs/relay-flow.spec.ts`, `specs/tally-flow.spec.ts`),
 * each over two scenario files in `journeys/`, all four passing: `relayEnv` is relay-two's `env`,
 * and `specHead` opens each spec (code run as the spec is imported).
 */
export function writeTwoFlowProject(
  root: string,
  { relayEnv, specHead = "" }: { relayEnv?: Record<string, string>; specHead?: string } = {},
): void {
  mkdirSync(join(root, "journeys"), { recursive: true });
  mkdirSync(join(root, "specs"), { recursive: true });
  const scenario = (name: string, body: object) =>
    writeFileSync(join(root, "journeys", `${name}.scenario.json`), JSON.stringify(body));
  scenario("relay-one", { flowName: "RelayFlow", turns: turns("FarewellStep", true) });
  scenario("relay-two", {
    flowName: "RelayFlow",
    ...(relayEnv ? { env: relayEnv } : {}),
    turns: turns("FarewellStep", true),
  });
  scenario("tally-one", { flowName: "TallyFlow", turns: turns("TallyStep", false) });
  scenario("tally-two", { flowName: "TallyFlow", turns: turns("TallyStep", false) });
  // Each spec knows both flows, so leaves the other flow's files to the other spec.
  const spec = (file: string, flow: string) =>
    writeFileSync(
      join(root, "specs", file),
      specHead +
        `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\n` +
        `import { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
        `import { tallyFlows } from ${from("test/support/tally-flow.ts")};\n` +
        `describeFlowScenarios("${flow}", { flows: [...relayFlows, ...tallyFlows], dir: "journeys" });\n`,
    );
  spec("relay-flow.spec.ts", "RelayFlow");
  spec("tally-flow.spec.ts", "TallyFlow");
}
