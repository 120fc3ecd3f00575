import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { INIT_CONFIG, INIT_KINDS, INIT_SCENARIO, INIT_TARGET, initFiles, type InitKind } from "./init/init-files.ts";
import { INIT_SCRIPTS, packageScripts } from "./init/package-scripts.ts";

export const INIT_USAGE = `Usage: flowcheck init [--kind http|langgraph|flowcheck]

Sets flowcheck up in this folder, a project's root, and overwrites nothing:
  flowcheck.config.json          one target, "${INIT_TARGET}", of the kind asked, to fill in
  ${INIT_SCENARIO.padEnd(30)} a first scenario played against it
  package.json                   the scripts test:flows (flowcheck test), flows:check
                                 (flowcheck check), judge:label and judge:calibrate (flowcheck
                                 judge label|calibrate); without a package.json they are printed
--kind is what the app speaks: http (default: your own chat API, described by templates and
JSON Pointers), langgraph (a LangGraph server) or flowcheck (a server of flowcheck's engine).
Each file's "$schema" points into the installed package, so an editor completes and explains
every key. If any of those files, or a script of the same name, exists, nothing is written
and init exits 1, saying what is in the way.`;

const NEXT_STEPS: Record<InitKind, string> = {
  http: "its baseUrl, how a turn is sent (turn) and how the answer is read (answer)",
  langgraph: "its baseUrl, and flowName in the scenario: the graph's id in langgraph.json",
  flowcheck: "its baseUrl, and flowName in the scenario: a flow the server lists at GET /ai/flows",
};

/** The kind `args` ask for; a string says what is wrong with them. */
function kindOf(args: readonly string[]): InitKind | { wrong: string } {
  let kind: string = INIT_KINDS[0];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--kind") kind = args[++index] ?? "";
    else if (arg.startsWith("--kind=")) kind = arg.slice("--kind=".length);
    else return { wrong: `unknown argument ${arg}` };
  }
  const known = (INIT_KINDS as readonly string[]).includes(kind);
  return known ? (kind as InitKind) : { wrong: `--kind takes ${INIT_KINDS.join(", ")}, not "${kind}"` };
}

/** What is in the way of writing `files` in `cwd`, each with what to do. */
function filesInTheWay(cwd: string, files: ReadonlyMap<string, string>): string[] {
  const what: Record<string, string> = {
    [INIT_CONFIG]: "add a target to it by hand (see its $schema), or move it away",
    [INIT_SCENARIO]: "rename it, or move it away",
  };
  return [...files.keys()]
    .filter((path) => existsSync(join(cwd, path)))
    .map((path) => `${path} exists: ${what[path] ?? "move it away"}.`);
}

/**
 * `flowcheck init`: writes in `cwd` flowcheck.config.json with one target to fill in, a first
 * scenario under scenarios/, and the npm scripts into package.json, overwriting nothing; prints
 * what it wrote and the next steps. Resolves to the exit code: 0 written (or `--help`), 1 when
 * something is in the way (nothing written), 2 for a bad argument.
 */
export async function initCommand(args: readonly string[], cwd: string = process.cwd()): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(INIT_USAGE);
    return 0;
  }
  const kind = kindOf(args);
  if (typeof kind === "object") {
    console.error(`flowcheck init: ${kind.wrong}. See flowcheck init --help.`);
    return 2;
  }
  const files = initFiles(cwd, kind);
  const scripts = packageScripts(cwd);
  const problems = [...filesInTheWay(cwd, files), ...(scripts.kind === "refused" ? scripts.problems : [])];
  if (problems.length) {
    console.error(
      `flowcheck init: nothing was written, as ${problems.length === 1 ? "one thing is" : "some things are"} in the way:`,
    );
    for (const problem of problems) console.error(`  ${problem}`);
    console.error("Then run flowcheck init again.");
    return 1;
  }
  for (const [path, text] of files) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  if (scripts.kind === "add") writeFileSync(join(cwd, "package.json"), scripts.text);
  report(kind, scripts.kind === "add");
  return 0;
}

/** What init wrote, and what to do next. */
function report(kind: InitKind, scriptsAdded: boolean): void {
  const names = Object.keys(INIT_SCRIPTS);
  const listed = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  console.log("flowcheck init wrote:");
  console.log(`  ${INIT_CONFIG.padEnd(30)} the target "${INIT_TARGET}" (${kind}) to fill in`);
  console.log(`  ${INIT_SCENARIO.padEnd(30)} a first scenario played against it`);
  if (scriptsAdded) console.log(`  ${"package.json".padEnd(30)} the scripts ${listed}`);
  else {
    console.log(`There is no package.json here; add these scripts to yours:`);
    for (const [name, command] of Object.entries(INIT_SCRIPTS)) console.log(`    "${name}": "${command}",`);
  }
  console.log("Next:");
  console.log(`  1. Fill in the target "${INIT_TARGET}" in ${INIT_CONFIG}: ${NEXT_STEPS[kind]}.`);
  console.log(`  2. npx flowcheck check   checks ${INIT_SCENARIO} against it, without playing a turn.`);
  console.log("  3. npx flowcheck test    plays it against your running app.");
}
