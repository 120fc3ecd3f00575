import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Scenario } from "../../src/testing/index.ts";
import { fixtureScenario } from "./fixture-scenario.ts";

// Helpers for the specs that run flowcheck in a child process (live runs, the docs, the CLI): a spec
// file that calls describeFlowScenarios with one file, run with node:test in a child process
// (asynchronously, so the fake OpenAI server in this process keeps answering), and its TAP output
// read back by test name.

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const BASIC_FLOW_FILE = fixtureScenario("basic-flow");
export const NO_KEY = "no OPENAI_API_KEY is set, so no LLM judge can be reached and expectedResponse is not graded";
/** The BasicFlow turns with an `expectedResponse`, as their judge tests are named. */
export const JUDGE_TESTS = [
  "1. name rejected · judge",
  "2. name accepted · judge",
  "3. two cities · judge",
  "4. bad zip stays · judge",
  "5. address completes the flow · judge",
];
export const TURN_TESTS = [
  "1. name rejected",
  "2. name accepted",
  "3. two cities",
  "4. bad zip stays",
  "5. address completes the flow",
  "6. completed session refuses more",
];

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// FLOWCHECK_*: a child must not write its results and coverage into, or take slots from, the run that runs this test.
// GITHUB_*: on GitHub's runner a child would annotate its failures as this run's and append to its job summary.
const INHERITED =
  /^(FLOW_CONCURRENCY|FLOW_MAX_TOKENS|FLOW_BASE_URL|SQLITE_PATH|SESSION_STORE|FLOW_MODEL|FLOW_REPEAT|FLOW_PASS_RATE|NODE_TEST_CONTEXT|CI|GITHUB_ACTIONS|GITHUB_STEP_SUMMARY)$|^OPENAI_|^JUDGE|^FLOWCHECK_|_USE_SCRIPTED_MODEL$|_CURRENT_DATE$/;

/**
 * Runs `node <args>` in the project folder with this process's environment minus everything
 * flowcheck reads, plus `env`. Asynchronous: the fake server in this process answers meanwhile.
 */
export function runNode(args: string[], env: Record<string, string> = {}, signal?: AbortSignal): Promise<ChildRun> {
  return runCommand(process.execPath, args, env, signal);
}

/** This process's environment minus everything flowcheck reads, plus `env`: a child flowcheck's. */
export function childEnvironment(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!INHERITED.test(key)) childEnv[key] = value;
  return Object.assign(childEnv, env);
}

/** `command <args>` in the project folder (or `cwd`), with the environment `runNode` gives. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  signal?: AbortSignal,
  cwd = ROOT,
  input?: string,
): Promise<ChildRun> {
  const child = spawn(command, args, {
    cwd,
    env: childEnvironment(env),
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(signal ? { signal } : {}),
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // Written whole, then closed, as a pipe gives it.
  if (input !== undefined) child.stdin!.end(input);
  return new Promise((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The flowcheck command's entry, as package.json's scripts and the package's bin run it. */
export const FLOWCHECK = join(ROOT, "src", "cli", "flowcheck.mjs");

/** `node src/cli/flowcheck.mjs <args>` in the project folder (or `cwd`), with the environment `runNode` gives. */
export function runFlowcheck(
  args: string[],
  env: Record<string, string> = {},
  signal?: AbortSignal,
  cwd = ROOT,
): Promise<ChildRun> {
  return runCommand(process.execPath, [FLOWCHECK, ...args], env, signal, cwd);
}

/** `node --import tsx --test --test-reporter=tap <spec>`, with the live settings every run needs. */
export function runSpec(spec: string, env: Record<string, string>, signal?: AbortSignal): Promise<ChildRun> {
  return runNode(
    ["--import", "tsx", "--test", "--test-reporter=tap", spec],
    { OPENAI_MAX_RETRIES: "0", OPENAI_TIMEOUT_MS: "5000", ...env },
    signal,
  );
}

export interface TapResult {
  ok: boolean;
  /** `SKIP <reason>` or `TODO <reason>` when the test has a directive. */
  directive: string | undefined;
  /** A failure's message: its one-line `error:` in whichever quotes, or its `error: |-` block unindented. */
  error: string | undefined;
}

const ESCAPED: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/**
 * A one-line message as the reporter writes it (util.inspect's quoting): in the first of ', " and `
 * it does not hold, else in ' with that quote escaped; a backslash and a control character escaped.
 */
function unquoted(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, escape: string) =>
    escape.length > 1 ? String.fromCharCode(Number.parseInt(escape.slice(1), 16)) : (ESCAPED[escape] ?? escape),
  );
}

/** The results of a TAP stream by test name (names are unique in these runs). */
export function tapResults(tap: string): Map<string, TapResult> {
  const lines = tap.split("\n");
  const results = new Map<string, TapResult>();
  lines.forEach((line, index) => {
    const match = /^\s*(not ok|ok) \d+ - (.+?)(?: # ((?:SKIP|TODO).*))?$/.exec(line);
    if (!match) return;
    let error: string | undefined;
    for (let i = index + 1; i < lines.length && !/^\s*(not ok|ok) \d+ - /.test(lines[i]!); i++) {
      const oneLine = /^\s*error: (['"`])(.*)\1$/.exec(lines[i]!);
      if (oneLine) {
        error = unquoted(oneLine[2]!);
        break;
      }
      const key = /^(\s*)error: \|-$/.exec(lines[i]!);
      if (!key) continue;
      const indent = key[1]!.length;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && /^\s*/.exec(lines[j]!)![0].length > indent; j++)
        block.push(lines[j]!.slice(indent + 2));
      error = block.join("\n");
      break;
    }
    results.set(match[2]!, { ok: match[1] === "ok", directive: match[3], error });
  });
  return results;
}

/** The result of the test named `name`, failing with every name there is when there is none. */
export function result(results: Map<string, TapResult>, name: string): TapResult {
  const found = results.get(name);
  assert.ok(found, `no test named ${JSON.stringify(name)}; the tests are ${[...results.keys()].join(" | ")}`);
  return found;
}

/** A spec file in `dir` that runs `scenarioFile` with the BasicFlow fixture, its artifacts in `artifactsDir`. */
export function writeSpec(dir: string, scenarioFile: string, artifactsDir: string): string {
  const spec = join(dir, "scenario.spec.ts");
  writeFileSync(
    spec,
    [
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
      `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
      "",
      `describeFlowScenarios("BasicFlow", { files: [${JSON.stringify(scenarioFile)}], flows: [basicFlowEntry], artifactsDir: ${JSON.stringify(artifactsDir)} });`,
      "",
    ].join("\n"),
  );
  return spec;
}

export function readBasicFlow(): Scenario {
  return JSON.parse(readFileSync(BASIC_FLOW_FILE, "utf8")) as Scenario;
}

/** `scenario` as `<dir>/<name>.scenario.json` (without `$schema`, which is relative to the file it came from). */
export function writeScenario(dir: string, name: string, scenario: Scenario): string {
  const copy = { ...scenario };
  delete copy.$schema;
  const file = join(dir, `${name}.scenario.json`);
  writeFileSync(file, `${JSON.stringify(copy, null, 2)}\n`);
  return file;
}

/** The `# judge: …` summary diagnostic of a run, if any. */
export function judgeSummary(tap: string): string | undefined {
  return judgeSummaries(tap)[0];
}

/** Every suite's `# judge: …` summary diagnostic, in the order of the run. */
export function judgeSummaries(tap: string): string[] {
  return [...tap.matchAll(/^\s*# (judge: .*)$/gm)].map((match) => match[1]!);
}
