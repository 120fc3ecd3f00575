import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { REPORTER_NAMES, WITH_DESTINATION, type RunReporterChoice } from "./reporter-names.ts";

export const USAGE = `Usage: flowcheck test [<folder|spec file|scenario file or folder>...] [options]

Runs the *.spec.ts files under the folders given, in this one process (or N, --workers N), then
prints the totals and a line per flow: the steps and tools its scenarios reached, and its new-flow
checklist counted, with the table of each flow that has a point to add (✗). Given scenario files or
folders (scenarios/team, scenarios/basic-flow.scenario.json), it runs just those scenarios, through
the specs of their flows, with those specs' checks: a flow's spec is named after it (InvoiceFlow:
invoice-flow.spec.ts); a scenario no spec describes is played against its target. Without a path it
runs scenarios/ so. Every run writes test/.tmp/run-results.json and its page,
test/.tmp/report.html; flowcheck merge merges shards' results into one, and flowcheck report
renders results as a page again.

Options:
  --repeat N                 play every scenario N times, its tests held to FLOW_PASS_RATE
  --checklist                print every flow's checklist table, not only those with a ✗
                             (FLOW_CHECKLIST=strict fails the run on a point not proved)
  --typechecked              the project's typecheck has passed (say so after running it):
                             proves the checklist's point 12
  --reporter LIST            add reporters of the run's events to the default ones (summary,
                             results, transcripts, html, github, checklist): comma-separated names
                             (${REPORTER_NAMES.join(", ")}),
                             junit=FILE or html=FILE to say where, or a module's path
                             (./test/slack-reporter.ts) whose default export is handed the
                             events (see docs/reference/reporters.md); may repeat
  --junit FILE               write the run's results as JUnit XML to FILE too: --reporter junit=FILE
  --test-shard i/n           run shard i of n: an even slice of the scenario files (those given,
                             or scenarios/), the specs describing no scenarios in shard 1 only
  --test-name-pattern RE     node:test's: run the tests whose names match (suites are named
                             "<Flow>: <scenario name>", tests "<n>. <label>"); may repeat
  --test-skip-pattern RE     node:test's: skip the tests whose names match; may repeat
  --test-only                node:test's: run only the tests marked only
  --test-timeout MS          node:test's: fail a test that runs longer
  --test-concurrency N       node:test's: top-level tests run at once (default 1: the specs run
                             one after another; live conversations play in parallel anyway)
  --workers N                play the spec files in N processes, one a core (default 1): split
                             by size, their output and results joined as one run's; not with
                             FLOW_MODEL=live or record, whose provider limits hold in one process
  --test-reporter NAME       spec (default), tap, dot, junit, lcov, or a module's path; may repeat
  --test-reporter-destination stdout|stderr|FILE
                             where each reporter writes, in the order the reporters are given
  --import MODULE            load MODULE (TypeScript too) before the specs; may repeat
  --watch                    run again on every save of the scenario files, their specs, the
                             flows' code (src/, the config's "flows" folder) or
                             flowcheck.config.json, each round a new flowcheck test; Ctrl-C stops
  -h, --help                 print this`;

/** What one flowcheck test command asks for. */
export interface RunRequest {
  paths: string[];
  repeat?: number;
  everyTable: boolean;
  typechecked: boolean;
  /** flowcheck's own reporters asked for (`--reporter`, `--junit`), beside the default ones. */
  runReporters: RunReporterChoice[];
  shard?: { index: number; total: number };
  namePatterns?: string[];
  skipPatterns?: string[];
  only: boolean;
  timeout?: number;
  concurrency: number;
  /** How many processes play the spec files (`--workers`); 1: this one alone. */
  workers: number;
  reporters: { name: string; destination: string }[];
  imports: string[];
  /** Run again on every save of what the run plays (`flowcheck test --watch`). */
  watch: boolean;
}

/** What to import for a module named on the command line: a path (./x.ts, /abs/x.ts) as its file URL, else the name as is. */
export function moduleSpecifier(name: string): string {
  return name.startsWith(".") || name.startsWith("/") ? pathToFileURL(resolve(name)).href : name;
}

/** A command line flowcheck test cannot take: printed as is, with the usage's pointer. */
export class ArgumentError extends Error {}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  repeat: { type: "string" },
  checklist: { type: "boolean" },
  typechecked: { type: "boolean" },
  junit: { type: "string" },
  reporter: { type: "string", multiple: true },
  "test-shard": { type: "string" },
  "test-name-pattern": { type: "string", multiple: true },
  "test-skip-pattern": { type: "string", multiple: true },
  "test-only": { type: "boolean" },
  "test-timeout": { type: "string" },
  "test-concurrency": { type: "string" },
  workers: { type: "string" },
  "test-reporter": { type: "string", multiple: true },
  "test-reporter-destination": { type: "string", multiple: true },
  import: { type: "string", multiple: true },
  watch: { type: "boolean" },
} as const;

function wholeNumber(option: string, value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) throw new ArgumentError(`--${option} takes ${what}, got ${value || "nothing"}.`);
  return Number(value);
}

function shardOf(value: string | undefined): RunRequest["shard"] {
  if (value === undefined) return undefined;
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2])) {
    throw new ArgumentError(
      `--test-shard takes i/n, shard i of n (1 ≤ i ≤ n), e.g. --test-shard=2/4; got ${value || "nothing"}.`,
    );
  }
  return { index: Number(match[1]), total: Number(match[2]) };
}

function reportersOf(names: readonly string[] = [], destinations: readonly string[] = []): RunRequest["reporters"] {
  if (destinations.length > 0 && destinations.length !== names.length) {
    throw new ArgumentError(
      `--test-reporter-destination is given ${destinations.length} times for ${names.length || "no"} --test-reporter; give one destination per reporter, in the same order.`,
    );
  }
  if (names.length === 0) return [{ name: "spec", destination: "stdout" }];
  return names.map((name, index) => ({ name, destination: destinations[index] ?? "stdout" }));
}

/** Whether `name` is a module to import (a path, or a scoped package), not a built-in's name. */
function isModule(name: string): boolean {
  return name.startsWith(".") || name.startsWith("/") || name.startsWith("@");
}

function choiceOf(entry: string): RunReporterChoice {
  const [name = "", destination] = entry.split(/=(.*)/s, 2);
  if (isModule(name)) {
    if (destination !== undefined)
      throw new ArgumentError(`--reporter ${entry}: a module reporter takes no destination; it writes where it likes.`);
    return { module: name };
  }
  const known = REPORTER_NAMES.find((each) => each === name);
  if (!known) {
    throw new ArgumentError(
      `--reporter ${name || "(nothing)"} is not a reporter: give ${REPORTER_NAMES.join(", ")}, or a module's path such as ./test/my-reporter.ts.`,
    );
  }
  if (destination === undefined) return { name: known };
  if (!WITH_DESTINATION.includes(known) || destination === "")
    throw new ArgumentError(
      `--reporter ${entry}: only ${WITH_DESTINATION.join(" and ")} take a destination (junit=FILE), and it is a file.`,
    );
  return { name: known, destination };
}

/** The reporters `--reporter` (comma-separated, may repeat) and `--junit FILE` (`junit=FILE`) ask for, in order. */
export function runReportersOf(lists: readonly string[] = [], junit?: string): RunReporterChoice[] {
  const entries = lists.flatMap((list) => list.split(",")).filter((entry) => entry !== "");
  return [...entries.map(choiceOf), ...(junit !== undefined ? [{ name: "junit" as const, destination: junit }] : [])];
}

/** The run `args` ask for; undefined for --help. Throws an ArgumentError saying what is wrong. */
export function runRequestOf(args: readonly string[]): RunRequest | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ArgumentError(`${(error as Error).message}.`);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const repeat = wholeNumber("repeat", values.repeat, "a whole number of runs");
  const shard = shardOf(values["test-shard"]);
  const timeout = wholeNumber("test-timeout", values["test-timeout"], "a whole number of milliseconds");
  if (values.watch) refuseWithWatch(values);
  return {
    paths: positionals,
    ...(repeat !== undefined ? { repeat } : {}),
    everyTable: values.checklist ?? false,
    typechecked: values.typechecked ?? false,
    runReporters: runReportersOf(values.reporter, values.junit),
    ...(shard ? { shard } : {}),
    ...(values["test-name-pattern"] ? { namePatterns: values["test-name-pattern"] } : {}),
    ...(values["test-skip-pattern"] ? { skipPatterns: values["test-skip-pattern"] } : {}),
    only: values["test-only"] ?? false,
    ...(timeout !== undefined ? { timeout } : {}),
    concurrency: wholeNumber("test-concurrency", values["test-concurrency"], "a whole number of tests") ?? 1,
    workers: wholeNumber("workers", values.workers, "a whole number of processes") ?? 1,
    reporters: reportersOf(values["test-reporter"], values["test-reporter-destination"]),
    imports: values.import ?? [],
    watch: values.watch ?? false,
  };
}

/** The options that would be wrong in an edit loop, refused with what to do instead. */
function refuseWithWatch(values: { "test-shard"?: string; typechecked?: boolean }): void {
  if (values["test-shard"] !== undefined) {
    throw new ArgumentError(
      "--watch reruns what you edit, and --test-shard plays a slice of a CI run: " +
        "give the scenario files you are editing instead of a shard.",
    );
  }
  if (values.typechecked) {
    throw new ArgumentError(
      "--typechecked says the typecheck has passed, which the first edit during --watch would no longer prove: " +
        "run the typecheck and a run without --watch for the checklist's point 12.",
    );
  }
}

/** `args` without --watch: what each round of `flowcheck test --watch` runs. */
export function withoutWatch(args: readonly string[]): string[] {
  const { tokens } = parseArgs({
    args: [...args],
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const watch = new Set(
    tokens.flatMap((token) => (token.kind === "option" && token.name === "watch" ? [token.index] : [])),
  );
  return args.filter((_, index) => !watch.has(index));
}
