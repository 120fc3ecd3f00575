import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { commandConfig } from "./command-config.ts";
import type { FlowEntry } from "../engine/index.ts";
import { FlowcheckError } from "../errors.ts";
import {
  discoverScenarios,
  discoverSelected,
  scenarioHeaderOf,
  type ScenarioDiscovery,
} from "../testing/scenario/scenario-discovery.ts";
import { withMarkedEquivalents } from "../testing/strength/marked-equivalents.ts";
import { measureStrength } from "../testing/strength/measure-strength.ts";
import { renderStrength } from "../testing/strength/render-strength.ts";
import type { FlowStrength } from "../testing/strength/strength-score.ts";
import { STRENGTH_RESULTS, strengthResultsOf, type NotMeasurable } from "../testing/strength/strength-results.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { loadConfigFile } from "../testing/target/target-config.ts";
import { answerHelp } from "./answer-help.ts";
import { printFailure } from "./print-failure.ts";
import { missingPaths } from "./spec-files.ts";

const STRENGTH_TURN_TIMEOUT_MS = 10_000;

const USAGE = `Usage: flowcheck strength [<scenario file or folder>...]

Measures how much of the project's flows their scenarios would notice broken: plays each scenario
on the flows flowcheck.config.json names in "flows", then once for each mutant its runs make
possible (a tool's state write dropped or changed, a step that stays or advances otherwise, a
hand-off or a child run dropped), scripted or in replay, never with a live model. A mutant is
killed when a check fails, survives when every scenario still passes (printed with the turn and
the expectation that would catch it), or is equivalent when nothing any turn could observe
differed. Prints each flow's score, killed ÷ (killed + survived), and writes
test/.tmp/${STRENGTH_RESULTS}, which flowcheck report shows beside the run's results. Without a
path it reads every *.scenario.json under scenarios/, at any depth; a scenario of a flow the
project does not register is listed as not measurable. flowcheck.config.json's
"strength": { "equivalent": { "<mutant id>": "<reason>" } } marks mutants equivalent. Exits 1 when
FLOW_STRENGTH_MIN is set and a flow's score is below it, or when the run cannot be made.`;

const RESULTS_FOLDER = join("test", ".tmp");

function parsed(args: readonly string[]): string[] | undefined {
  try {
    return parseArgs({ args: [...args], options: {}, allowPositionals: true }).positionals;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return undefined;
  }
}

/** The scenario files a strength run plays, and those it cannot, saying why: a flow it does not register, or no scenario. */
function measurable(
  found: ScenarioDiscovery,
  flows: readonly FlowEntry[],
): { files: string[]; notMeasurable: NotMeasurable[] } {
  const names = new Set(flows.map((entry) => entry.flow.name));
  const files: string[] = [];
  const notMeasurable: NotMeasurable[] = [];
  for (const file of found.files) {
    const header = scenarioHeaderOf(file);
    const flow = typeof header?.flowName === "string" ? header.flowName : undefined;
    if (flow !== undefined && names.has(flow)) files.push(file);
    else {
      const target = typeof header?.target === "string" ? ` (it names target ${header.target})` : "";
      notMeasurable.push({
        file,
        why:
          `flow ${flow ?? "(none)"}${target} is not one the project registers in flowcheck.config.json's "flows": ` +
          "a mutant is a changed copy of a flow's definition, built into the app, so only its flows in this process are measured",
      });
    }
  }
  return { files, notMeasurable };
}

function belowMinimum(scores: readonly FlowStrength[], min: number): FlowStrength[] {
  return scores.filter((flow) => flow.score !== null && flow.score < min);
}

/** Measures, prints and writes the run; whether every flow reached FLOW_STRENGTH_MIN. */
async function strengthRun(paths: readonly string[]): Promise<boolean> {
  const { environment, config } = commandConfig();
  const startedAt = new Date();
  const flows = await loadProjectFlows();
  const marked = loadConfigFile(process.cwd())?.strength?.equivalent ?? {};
  const found = paths.length ? discoverSelected(paths) : discoverScenarios("scenarios");
  // A file that looks like a scenario but would never be loaded must not pass as measured.
  if (found.misnamed.length)
    throw new FlowcheckError(
      "scenario_invalid",
      found.misnamed
        .map(
          ({ file, rename }) =>
            `${file} looks like a scenario but is not named *.scenario.json; rename it to ${rename}.`,
        )
        .join("\n"),
    );
  const { files, notMeasurable } = measurable(found, flows);
  const scratchDir = mkdtempSync(join(tmpdir(), "flowcheck-strength-"));
  let result;
  try {
    result = await measureStrength({
      files,
      flows,
      env: environment,
      scratchDir,
      // A scripted turn takes milliseconds: a mutant that makes the flow loop is cut off in seconds,
      // not at FLOW_TURN_TIMEOUT_MS's five-minute default, unless the run sets it.
      turnTimeoutMs: config.env["FLOW_TURN_TIMEOUT_MS"] ? config.turnTimeoutMs : STRENGTH_TURN_TIMEOUT_MS,
    });
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
  result = withMarkedEquivalents(result, marked);
  const millis = Date.now() - startedAt.getTime();
  const results = strengthResultsOf(result, { startedAt: startedAt.toISOString(), millis, notMeasurable });
  mkdirSync(RESULTS_FOLDER, { recursive: true });
  const out = join(RESULTS_FOLDER, STRENGTH_RESULTS);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(renderStrength(result));
  for (const { file, why } of notMeasurable) console.log(`\nnot measurable: ${file}: ${why}`);
  if (files.length === 0) console.log(`\nno scenario to measure under ${paths.join(", ") || "scenarios/"}`);
  console.log(`\nresults: ${out} (${(millis / 1000).toFixed(1)} s; flowcheck report shows them)`);
  if (config.strengthMin === undefined) return true;
  const below = belowMinimum(result.scores, config.strengthMin);
  if (below.length === 0) return true;
  const named = below.map((flow) => `${flow.flow} ${flow.score!.toFixed(2)}`).join(", ");
  console.log(`below FLOW_STRENGTH_MIN=${config.strengthMin}: ${named}`);
  return false;
}

/** `flowcheck strength [<scenario file or folder>...]`: 0, 1 below FLOW_STRENGTH_MIN or when it cannot run, 2 for a bad command line. */
export async function strengthCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const paths = parsed(args);
  if (!paths) return 2;
  const missing = missingPaths(paths);
  if (missing.length) {
    console.error(`flowcheck strength: ${missing.join(", ")}: no such file or folder.`);
    return 2;
  }
  try {
    return (await strengthRun(paths)) ? 0 : 1;
  } catch (error) {
    printFailure(error);
    return 1;
  }
}
