import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { COVERAGE_RUN, coverageLines, mergeCoverage, type FlowCoverage } from "../testing/report/flow-coverage.ts";
import { closestName } from "../testing/scenario/closest-name.ts";
import { discoverSelected } from "../testing/scenario/scenario-discovery.ts";
import { flowsDescribedBy } from "../testing/node-test/scenario-specs.ts";
import { answerHelp } from "./answer-help.ts";

// Node 20's test runner expands no globs and takes options only before the files, so this finds
// the spec files and puts node:test's options (e.g. --test-name-pattern) first.
//
// It also spends one process per core rather than one per spec file: starting Node, tsx and the
// code under test costs about half a second, far more than most spec files take to run, so each
// process imports a share of the files and runs their tests one file after another. A spec must
// therefore leave the process as it found it (environment, patches, servers): the suites do.
//
// `--repeat N` is ours: it plays every scenario N times (FLOW_REPEAT) to measure a live flow's steadiness.
const SKIPPED_FOLDERS = new Set(["node_modules", ".tmp", "bench", "fixtures"]);

function specsUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : specsUnder(child);
      return entry.name.endsWith(".spec.ts") ? [child] : [];
    })
    .sort();
}

/** `n` shares of the files, each a file that imports its share, in a new folder; with the folder. */
function shareFiles(files: string[], n: number): { entries: string[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-specs-"));
  const shares: string[][] = Array.from({ length: n }, () => []);
  files.forEach((file, index) => shares[index % n]!.push(file));
  const entries = shares.map((share, index) => {
    const entry = join(dir, `share-${index + 1}-of-${n}.mjs`);
    // One file that fails to load is one failing test naming it; the share's other files still run.
    const imports = share.map((file) => {
      const url = JSON.stringify(pathToFileURL(resolve(file)).href);
      return `try {\n  await import(${url});\n} catch (error) {\n  test(${JSON.stringify(`${file} loads`)}, () => {\n    throw error;\n  });\n}\n`;
    });
    writeFileSync(entry, `import { test } from "node:test";\n${imports.join("")}`);
    return entry;
  });
  return { entries, dir };
}

answerHelp(`Usage: run-specs <folder|spec file|scenario file or folder>... [--repeat N] [node:test options]
   as: npm test [-- …], npm run test:flows [-- …], npm run test:<flow> [-- …]

Runs the *.spec.ts files under the folders given (one node:test process per core), then prints
what the scenarios reached of each flow. Given scenario files or folders (scenarios/team,
scenarios/basic-flow.scenario.json), it runs just those scenarios, through the specs that call
describeFlowScenarios for their flows, with those specs' checks. node:test's options pass
through, e.g. --test-name-pattern "BasicFlow: basic-flow" (suites are named
"<Flow>: <scenario name>", tests "<n>. <label>"), --test-reporter=junit
--test-reporter-destination=junit.xml. --repeat N plays every scenario N times (FLOW_REPEAT).`);

// node:test's options that take a value as the next argument, so that value is not taken for a path.
const VALUE_OPTIONS = new Set([
  "--test-name-pattern",
  "--test-skip-pattern",
  "--test-reporter",
  "--test-reporter-destination",
  "--test-concurrency",
  "--test-timeout",
  "--test-shard",
  "--import",
  "--require",
  "-r",
  "--conditions",
  "-C",
]);

const args = process.argv.slice(2);
const repeatAt = args.findIndex((arg) => arg === "--repeat" || arg.startsWith("--repeat="));
if (repeatAt !== -1) {
  const [flag] = args.splice(repeatAt, 1);
  const value = flag!.includes("=") ? flag!.split("=")[1] : args.splice(repeatAt, 1)[0];
  if (!value || !/^[1-9][0-9]*$/.test(value)) {
    console.error(`run-specs: --repeat takes a whole number of runs, got ${value ?? "nothing"}.`);
    process.exit(2);
  }
  process.env["FLOW_REPEAT"] = value;
}
const paths: string[] = [];
const options: string[] = [];
for (let index = 0; index < args.length; index++) {
  const arg = args[index]!;
  if (!arg.startsWith("-")) paths.push(arg);
  else {
    options.push(arg);
    if (VALUE_OPTIONS.has(arg) && index + 1 < args.length) options.push(args[++index]!);
  }
}
const missing = paths.filter((path) => !existsSync(path));
if (missing.length) {
  console.error(`run-specs: ${missing.join(", ")}: no such file or folder.`);
  process.exit(2);
}
// A scenario path is a JSON file, or a folder with no spec in it (scenarios/, scenarios/team).
const isScenarioPath = (path: string) => (statSync(path).isDirectory() ? specsUnder(path).length === 0 : path.endsWith(".json"));
const scenarioPaths = paths.filter(isScenarioPath);
const specPaths = paths.filter((path) => !isScenarioPath(path));
let files = (specPaths.length || !scenarioPaths.length ? specPaths : ["test"]).flatMap(specsUnder);
if (scenarioPaths.length) {
  files = scenarioSpecs(files, scenarioPaths);
  process.env["FLOW_SCENARIOS"] = scenarioPaths.join(delimiter);
}
if (files.length === 0) {
  console.error(`run-specs: no *.spec.ts under ${paths.join(", ") || "(no path given)"}; nothing to run.`);
  process.exit(1);
}
// node:test opens a reporter's file without making its folder: test/.tmp/ does not exist in a
// fresh checkout, and a nightly job's JUnit report would die there before any test ran.
options.forEach((option, index) => {
  const destination = option.startsWith("--test-reporter-destination=") ? option.slice(option.indexOf("=") + 1) : option === "--test-reporter-destination" ? options[index + 1] : undefined;
  if (destination && destination !== "stdout" && destination !== "stderr") mkdirSync(dirname(resolve(destination)), { recursive: true });
});
const asked = options.find((option) => option.startsWith("--test-concurrency="))?.split("=")[1];
const processes = Math.max(1, Math.min(files.length, asked ? Number(asked) || 1 : availableParallelism()));
const { entries, dir } = shareFiles(files, processes);
const concurrency = asked ? [] : [`--test-concurrency=${processes}`];
// The flow suites' processes each write what their scenarios reached; this run merges its own.
const run = randomUUID().slice(0, 8);
const child = spawn(process.execPath, ["--import", "tsx", "--test", ...concurrency, ...options, ...entries], {
  stdio: "inherit",
  env: { ...process.env, [COVERAGE_RUN]: run },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  rmSync(dir, { recursive: true, force: true });
  reportCoverage(run);
  process.exit(code ?? (signal ? 1 : 0));
});

/**
 * The specs that run the scenarios at `scenarioPaths`: those among `files` that describe the
 * scenarios of those files' flows. A scenario whose flow no spec describes would be run by none,
 * so that stops the run, saying which spec to add or which flow was meant.
 */
function scenarioSpecs(files: string[], scenarioPaths: string[]): string[] {
  const described = new Map(files.map((file) => [file, flowsDescribedBy(file)]));
  const runs = [...new Set([...described.values()].flat())];
  const found = discoverSelected(scenarioPaths);
  if (found.files.length + found.misnamed.length === 0) {
    console.error(`run-specs: no *.scenario.json under ${scenarioPaths.join(", ")}; nothing to run.`);
    process.exit(1);
  }
  const flowNames = found.files.map((file) => {
    try {
      return (JSON.parse(readFileSync(file, "utf8")) as { flowName?: unknown }).flowName;
    } catch {
      return undefined;
    }
  });
  let unrun = 0;
  found.files.forEach((file, index) => {
    const flowName = flowNames[index];
    if (typeof flowName !== "string" || runs.includes(flowName)) return;
    unrun += 1;
    const guess = closestName(flowName, runs);
    console.error(
      `run-specs: ${file} has "flowName": "${flowName}", but no spec given runs ${flowName}'s scenarios (they run ${runs.join(", ") || "no flow's"})` +
        `${guess ? `; did you mean ${guess}?` : "."} Fix the flowName, or add test/flows/${kebabCase(flowName)}.spec.ts calling describeFlowScenarios("${flowName}", { flows: registeredFlows }).`,
    );
  });
  if (unrun) process.exit(1);
  // A file that is not JSON, has no flowName, is misnamed or missing is every flow spec's to
  // report, with the loader's problems; the others need only their own flows' specs.
  const unattributed = found.missing.length + found.misnamed.length > 0 || flowNames.some((name) => typeof name !== "string");
  return files.filter((file) => described.get(file)!.some((flow) => unattributed || flowNames.includes(flow)));
}

/** `HomeInsuranceFlow` → `home-insurance-flow`. */
function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** Merges the coverage files of `run`'s processes into test/.tmp/flow-coverage.json and prints a line per flow. */
function reportCoverage(run: string): void {
  const folder = join("test", ".tmp", "coverage");
  const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith(`${run}-`)) : [];
  if (files.length === 0) return;
  const merged: FlowCoverage = {};
  for (const file of files) {
    mergeCoverage(merged, JSON.parse(readFileSync(join(folder, file), "utf8")) as FlowCoverage);
    rmSync(join(folder, file), { force: true });
  }
  const out = join("test", ".tmp", "flow-coverage.json");
  writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`\nflow coverage, from the scenarios' stored sessions (${out}):`);
  for (const line of coverageLines(merged)) console.log(`  ${line}`);
}
