import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Node 20's test runner expands no globs and takes options only before the files, so this finds
// the spec files and puts node:test's options (e.g. --test-name-pattern) first.
//
// It also spends one process per core rather than one per spec file: starting Node, tsx and the
// code under test costs about half a second, far more than most spec files take to run, so each
// process imports a share of the files and runs their tests one file after another. A spec must
// therefore leave the process as it found it (environment, patches, servers): the suites do.
//
// Plain JavaScript run by plain `node`, because a user waits for every process before the tests:
// Node 20 runs no TypeScript, and tsx's import hooks cost a process about 0.2 s (they start a
// worker thread). Only the processes that import the specs load tsx; the TypeScript this needs
// for scenario paths and for coverage is loaded when a run has them (see importTypeScript).
//
// `--repeat N` is ours: it plays every scenario N times (FLOW_REPEAT) to measure a live flow's steadiness.
// `--checklist` is ours too: the run's summary shows every flow's checklist table, not only those with a ✗.
const SKIPPED_FOLDERS = new Set(["node_modules", ".tmp", "bench", "fixtures"]);

// src/config.ts reads it (`runIdOf`).
const COVERAGE_RUN = "FLOWCHECK_COVERAGE_RUN";

/** @type {{ require(id: string, fromFile: string | URL): unknown } | undefined} */
let tsx;

// The TypeScript this needs, relative to this file: bundled together, in one build and one check
// of their inputs, the first time one of them is needed.
const HELPERS = ["./specs-for-scenarios.ts", "./shard-scenarios.ts", "./report-coverage.ts", "./merge-results.ts", "./run-checklist.ts", "../flows/index.ts"];
/** @param {string} path */
const helperFile = (path) => fileURLToPath(new URL(path, import.meta.url));
/** @type {Promise<Map<string, string> | undefined> | undefined} */
let helperBundles;
/** @type {Map<string, Promise<any>>} */
const imported = new Map();

/**
 * One of the HELPERS, imported once: from its bundle (bundle-modules.mjs) in plain node, else
 * through tsx's require hooks, scoped to this call (they run in this thread, about a quarter of what
 * its import hooks cost).
 * @param {string} path @returns {Promise<any>}
 */
function importTypeScript(path) {
  let module = imported.get(path);
  if (!module) {
    helperBundles ??= bundling().then((bundler) => bundler.bundleModules(HELPERS.map(helperFile)));
    module = helperBundles.then((bundles) => {
      const url = bundles?.get(helperFile(path));
      return url ? import(url) : requireTypeScript(path);
    });
    imported.set(path, module);
  }
  return module;
}

/** @type {Promise<typeof import("./bundle-modules.mjs")> | undefined} */
let bundler;
const bundling = () => (bundler ??= import("./bundle-modules.mjs"));

/** @param {string} path relative to this file */
function requireTypeScript(path) {
  /** @type {typeof import("tsx/cjs/api")} */
  const api = createRequire(import.meta.url)("tsx/cjs/api");
  tsx ??= api.register({ namespace: "run-specs" });
  return tsx.require(path, import.meta.url);
}

/**
 * Takes `--test-shard=i/n` (or `--test-shard i/n`) out of `args`: run-specs shards the scenarios
 * itself (node:test's own shards would split the share files, not the conversations).
 * @param {string[]} args @returns {{ index: number, total: number } | undefined}
 */
function takeShard(args) {
  const at = args.findIndex((arg) => arg === "--test-shard" || arg.startsWith("--test-shard="));
  if (at === -1) return undefined;
  const [flag = ""] = args.splice(at, 1);
  const value = flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : args.splice(at, 1)[0];
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(value ?? "");
  if (!match || Number(match[1]) > Number(match[2])) {
    console.error(`run-specs: --test-shard takes i/n, shard i of n (1 ≤ i ≤ n), e.g. --test-shard=2/4; got ${value ?? "nothing"}.`);
    process.exit(2);
  }
  return { index: Number(match[1]), total: Number(match[2]) };
}

/**
 * What a share file does when a spec file fails to import: besides the failing test, it writes
 * the file into run `run`'s results (under test/.tmp/results/), since its scenarios never ran.
 * @param {string} run
 */
function notLoadedNote(run) {
  const dir = JSON.stringify(resolve("test", ".tmp", "results"));
  return (
    `import { appendFileSync as append, mkdirSync as mkdir } from "node:fs";\n` +
    `const noteNotLoaded = (file, error) => {\n  mkdir(${dir}, { recursive: true });\n` +
    `  append(${dir} + "/${run}-" + process.pid + ".jsonl", JSON.stringify({ specNotLoaded: { file, message: String(error?.message ?? error) } }) + "\\n");\n};\n`
  );
}

/** @param {string} path @returns {string[]} */
function specsUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : specsUnder(child);
      return entry.name.endsWith(".spec.ts") ? [child] : [];
    })
    .sort();
}

/**
 * What a share file does once its specs are imported, in a run with a coordinator: tells it this
 * process has asked for all its conversations, so it can grant the longest of the whole run first.
 * @param {string | undefined} coordinator
 */
function definedNote(coordinator) {
  if (!coordinator) return "";
  const url = JSON.stringify(`${coordinator}/defined`);
  return `await new Promise((done) => postDefined(${url}, { method: "POST" }, (response) => response.resume().on("end", done)).on("error", done).end("{}"));\n`;
}

/**
 * `n` shares of the files, each a file that imports its share, in a new folder; with the folder.
 * With `bundled` (bundle-modules.mjs), a share imports each spec's bundle, and needs no tsx.
 * @param {string[]} files @param {number} n @param {string} run @param {string} [coordinator] @param {Map<string, string>} [bundled]
 */
function shareFiles(files, n, run, coordinator, bundled) {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-specs-"));
  /** @type {string[][]} */
  const shares = Array.from({ length: n }, () => []);
  files.forEach((file, index) => shares[index % n]?.push(file));
  // Each share loads tsx before its specs, so the node:test process that only starts the shares need not.
  const tsxLoader = bundled ? "" : `import ${JSON.stringify(import.meta.resolve("tsx"))};\n`;
  const entries = shares.map((share, index) => {
    const entry = join(dir, `share-${index + 1}-of-${n}.mjs`);
    // One file that fails to load is one failing test naming it; the share's other files still run.
    const imports = share.map((file) => {
      const url = JSON.stringify(bundled?.get(file) ?? pathToFileURL(resolve(file)).href);
      return `try {\n  await import(${url});\n} catch (error) {\n  noteNotLoaded(${JSON.stringify(file)}, error);\n  test(${JSON.stringify(`${file} loads`)}, () => {\n    throw error;\n  });\n}\n`;
    });
    const postImport = coordinator ? `import { request as postDefined } from "node:http";\n` : "";
    writeFileSync(entry, `${tsxLoader}import { test } from "node:test";\n${postImport}${notLoadedNote(run)}${imports.join("")}${definedNote(coordinator)}`);
    return entry;
  });
  return { entries, dir };
}

const startedAt = new Date().toISOString();
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(`Usage: run-specs <folder|spec file|scenario file or folder>... [--repeat N] [--checklist] [--no-bundle] [node:test options]
   as: npm test [-- …], npm run test:flows [-- …], npm run test:<flow> [-- …]

Runs the *.spec.ts files under the folders given (one node:test process per core), then prints
the totals and a line per flow: the steps and tools its scenarios reached, and its new-flow
checklist counted, with the table of each flow that has a point to add (✗); --checklist prints
every flow's table (FLOW_CHECKLIST=strict fails the run on a point not proved). Given scenario files or folders (scenarios/team,
scenarios/basic-flow.scenario.json), it runs just those scenarios, through the specs of their
flows, with those specs' checks: a flow's spec is named after it (InvoiceFlow: invoice-flow.spec.ts). node:test's options pass
through, e.g. --test-name-pattern "BasicFlow: basic-flow" (suites are named
"<Flow>: <scenario name>", tests "<n>. <label>"), --test-reporter=junit
--test-reporter-destination=junit.xml. --repeat N plays every scenario N times (FLOW_REPEAT).
The specs are bundled (node_modules/.cache/flowcheck/modules) so they load without a TypeScript
loader; --no-bundle imports them through tsx instead.
--test-shard=i/n runs shard i of n: an even slice of the scenario files (those given, or
scenarios/), the specs describing no scenarios in shard 1 only. Every run writes
test/.tmp/run-results.json and its page, test/.tmp/report.html; npm run results:merge merges
shards' results into one, and npm run report renders results as a page again.`);
  process.exit(0);
}

// node:test's options that take a value as the next argument, so that value is not taken for a path.
const VALUE_OPTIONS = new Set([
  "--test-name-pattern",
  "--test-skip-pattern",
  "--test-reporter",
  "--test-reporter-destination",
  "--test-concurrency",
  "--test-timeout",
  "--import",
  "--require",
  "-r",
  "--conditions",
  "-C",
]);

/** What this run adds to the environment the test processes get: it never changes its own. @type {Record<string, string>} */
const childEnv = {};
const repeatAt = args.findIndex((arg) => arg === "--repeat" || arg.startsWith("--repeat="));
if (repeatAt !== -1) {
  const [flag = ""] = args.splice(repeatAt, 1);
  const value = flag.includes("=") ? flag.split("=")[1] : args.splice(repeatAt, 1)[0];
  if (!value || !/^[1-9][0-9]*$/.test(value)) {
    console.error(`run-specs: --repeat takes a whole number of runs, got ${value ?? "nothing"}.`);
    process.exit(2);
  }
  childEnv["FLOW_REPEAT"] = value;
}
const shard = takeShard(args);
/** Takes the flag `name` of ours out of `args`: whether it was given. @param {string} name */
const takeFlag = (name) => {
  const at = args.indexOf(name);
  if (at !== -1) args.splice(at, 1);
  return at !== -1;
};
const noBundle = takeFlag("--no-bundle");
const everyTable = takeFlag("--checklist");
/** @type {string[]} */
const paths = [];
/** @type {string[]} */
const options = [];
for (let index = 0; index < args.length; index++) {
  const arg = args[index] ?? "";
  if (!arg.startsWith("-")) paths.push(arg);
  else {
    options.push(arg);
    if (VALUE_OPTIONS.has(arg) && index + 1 < args.length) options.push(args[++index] ?? "");
  }
}
/** The values `options` give `name`, as `name=value` or `name value`. @param {string} name */
const valuesOf = (name) => options.flatMap((option, index) => (option === name ? [options[index + 1] ?? ""] : option.startsWith(`${name}=`) ? [option.slice(name.length + 1)] : []));
const missing = paths.filter((path) => !existsSync(path));
if (missing.length) {
  console.error(`run-specs: ${missing.join(", ")}: no such file or folder.`);
  process.exit(2);
}
// A scenario path is a JSON file, or a folder with no spec in it (scenarios/, scenarios/team).
/** @param {string} path */
const isScenarioPath = (path) => (statSync(path).isDirectory() ? specsUnder(path).length === 0 : path.endsWith(".json"));
const scenarioPaths = paths.filter(isScenarioPath);
const specPaths = paths.filter((path) => !isScenarioPath(path));
let files = (specPaths.length || !scenarioPaths.length ? specPaths : ["test"]).flatMap(specsUnder);
if (scenarioPaths.length) {
  const { specsForScenarios } = /** @type {typeof import("./specs-for-scenarios.ts")} */ (await importTypeScript("./specs-for-scenarios.ts"));
  files = specsForScenarios(files, scenarioPaths);
  childEnv["FLOW_SCENARIOS"] = scenarioPaths.join(delimiter);
}
if (shard) files = await shardFiles(files, scenarioPaths, shard);
if (files.length === 0) {
  console.error(`run-specs: no *.spec.ts under ${paths.join(", ") || "(no path given)"}; nothing to run.`);
  process.exit(1);
}
// node:test opens a reporter's file without making its folder: test/.tmp/ does not exist in a
// fresh checkout, and a nightly job's JUnit report would die there before any test ran.
for (const destination of valuesOf("--test-reporter-destination")) {
  if (destination !== "stdout" && destination !== "stderr") mkdirSync(dirname(resolve(destination)), { recursive: true });
}
// A module given to --import or --require loads ahead of the shares, in every process, and may be
// TypeScript: then tsx must load before it there too.
const loadsModule = ["--import", "--require", "-r"].some((name) => valuesOf(name).length);
const asked = valuesOf("--test-concurrency")[0];
const processes = Math.max(1, Math.min(files.length, asked ? Number(asked) || 1 : availableParallelism()));
// The run's slots and provider limits, shared by its processes. A run without a key, slots or a
// budget to share (every scripted run) calls no provider, and pays nothing to start them.
/** @param {NodeJS.ProcessEnv} env */
const mayCallProvider = (env) => Boolean(env["OPENAI_API_KEY"] || env["FLOW_CONCURRENCY"] || env["FLOW_MAX_TOKENS"]);
const coordination = mayCallProvider({ ...process.env, ...childEnv }) ? await (await import("./coordinator.mjs")).coordinateRun(childEnv, processes) : undefined;
// The flow suites' processes each write what their scenarios reached, and their results; this run merges its own.
const run = randomUUID().slice(0, 8);
// Bundled specs load in a fraction of the time (bundle-modules.mjs), except where node itself must
// see the sources: watching them, or measuring their coverage.
const bundles = noBundle || options.some((option) => /^--(watch|experimental-test-coverage)/.test(option)) ? undefined : await (await bundling()).bundleModules(files);
const { entries, dir } = shareFiles(files, processes, run, coordination?.url, bundles);
// One share runs as the test process itself, without a `node --test` process to start it (about
// 0.15 s of a one-file run), unless an option needs that runner. Its stray output is then printed as
// is, not as the reporter's comments.
const needsRunner = options.some((option) => /^--(test-concurrency|watch)/.test(option));
const runner = processes === 1 && !needsRunner ? [] : ["--test", ...(asked ? [] : [`--test-concurrency=${processes}`])];
const child = spawn(process.execPath, [...(bundles ? ["--enable-source-maps"] : []), ...(loadsModule ? ["--import", "tsx"] : []), ...runner, ...options, ...entries], {
  stdio: "inherit",
  env: { ...process.env, ...childEnv, [COVERAGE_RUN]: run },
});
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => child.kill(signal));
// Compiled while the tests run, when this process has nothing else to do, rather than after them.
// Their failures, if any, are thrown where they are used.
for (const path of ["./report-coverage.ts", "./merge-results.ts", "./run-checklist.ts", "../flows/index.ts"]) setImmediate(() => importTypeScript(path).catch(() => undefined));
child.on("exit", async (code, signal) => {
  // Set first: the tests' verdict stands even if what follows fails or never finishes.
  // Not process.exit: tsx writes what it compiled to its cache after this, and the next run reuses it.
  process.exitCode = code ?? (signal ? 1 : 0);
  rmSync(dir, { recursive: true, force: true });
  const folder = join("test", ".tmp");
  const coverage = existsSync(join(folder, "coverage")) ? readdirSync(join(folder, "coverage")).filter((name) => name.startsWith(`${run}-`)) : [];
  const merged = coverage.length
    ? /** @type {typeof import("./report-coverage.ts")} */ (await importTypeScript("./report-coverage.ts")).reportCoverage(
        coverage.map((name) => join(folder, "coverage", name)),
        folder,
      )
    : {};
  if (await writeResults(folder, run, merged)) process.exitCode ||= 1;
  void coordination?.finish();
});

/**
 * Shard `shard`'s spec files (see shard-scenarios.ts), its slice of the scenarios set as
 * FLOW_SCENARIOS. A shard left without a scenario writes its empty results and ends green.
 * @param {string[]} files @param {string[]} scenarioPaths @param {{ index: number, total: number }} shard
 */
async function shardFiles(files, scenarioPaths, shard) {
  const { shardOf } = /** @type {typeof import("./shard-scenarios.ts")} */ (await importTypeScript("./shard-scenarios.ts"));
  const sharded = shardOf(files, scenarioPaths, shard);
  if (sharded.scenarioPaths.length) childEnv["FLOW_SCENARIOS"] = sharded.scenarioPaths.join(delimiter);
  else delete childEnv["FLOW_SCENARIOS"];
  if (sharded.files.length === 0) {
    console.log(`run-specs: shard ${shard.index}/${shard.total} has nothing to run (${sharded.scenarios} scenario files in ${shard.total} shards).`);
    await writeResults(join("test", ".tmp"), "none");
    process.exit(0);
  }
  return sharded.files;
}


/**
/**
 * Merges this run's results parts into `<folder>/run-results.json`, and renders them as
 * `<folder>/report.html`, green or red, with its coverage and the new-flow checklist of the
 * registered flows; true when a strict checklist fails.
 * @param {string} folder @param {string} [runId] @param {import("../testing/report/flow-coverage.ts").FlowCoverage} [coverage]
 */
async function writeResults(folder, runId = run, coverage = {}) {
  mkdirSync(folder, { recursive: true });
  const info = { startedAt, endedAt: new Date().toISOString(), ...(shard ? { shard: `${shard.index}/${shard.total}` } : {}) };
  const hasConversations = Object.keys(coverage).length > 0;
  // The registered flows are needed only by a run that played conversations: the repo's own specs alone never need them.
  const flows = hasConversations ? /** @type {typeof import("../flows/index.ts")} */ (await importTypeScript("../flows/index.ts")).registeredFlows : [];
  const results = /** @type {typeof import("./merge-results.ts")} */ (await importTypeScript("./merge-results.ts")).writeRunResults(folder, runId, info, coverage, flows, { everyTable });
  return /** @type {typeof import("./run-checklist.ts")} */ (await importTypeScript("./run-checklist.ts")).failOnChecklist(results);
}
