import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, type ChildRun, runFlowcheck } from "./child-run.ts";
import { fixtureScenario } from "./fixture-scenario.ts";

/** Inputs a page must show as text: markup that would run if it were not escaped. */
export const INJECTIONS = ["<script>alert(1)</script>", `"><img src=x onerror=alert(2)>`];

/**
 * Runs, with flowcheck test in child processes in `dir` (so its results and page are written to
 * `<dir>/test/.tmp/`), BasicFlow's fixture scenario as it is (passing), with its second turn expecting
 * the wrong step (failing), and with the injection inputs as a user's name.
 */
export function runReportFixture(dir: string, env: Record<string, string> = {}): Promise<ChildRun> {
  const scenarios = join(dir, "journeys");
  const specs = join(dir, "specs");
  mkdirSync(scenarios, { recursive: true });
  mkdirSync(specs, { recursive: true });
  const basic = JSON.parse(readFileSync(fixtureScenario("basic-flow"), "utf8")) as {
    turns: Record<string, unknown>[];
  } & Record<string, unknown>;
  delete basic["$schema"];
  const [first, second, ...rest] = basic.turns;
  writeFileSync(join(scenarios, "whole-conversation.scenario.json"), JSON.stringify(basic));
  writeFileSync(
    join(scenarios, "name-then-cities.scenario.json"),
    JSON.stringify({
      ...basic,
      tags: ["regression"],
      turns: [first, { ...second, expectedActiveStep: "AddressStep" }, ...rest],
    }),
  );
  writeFileSync(
    join(scenarios, "markup-as-name.scenario.json"),
    JSON.stringify({
      flowName: "BasicFlow",
      tags: ["security"],
      turns: INJECTIONS.map((input, index) => ({
        label: `markup ${index + 1}`,
        input,
        expectedActiveStep: "WeatherStep",
      })),
    }),
  );
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  writeFileSync(
    join(specs, "basic-flow.spec.ts"),
    `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { basicFlowEntry } from ${from("test/fixtures/flows/index.ts")};\n` +
      `describeFlowScenarios("BasicFlow", { flows: [basicFlowEntry], dir: "journeys" });\n`,
  );
  return runFlowcheck(["test", "specs"], env, undefined, dir);
}
