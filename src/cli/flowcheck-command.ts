import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { closestName } from "../testing/scenario/closest-name.ts";

type Command = (args: readonly string[]) => Promise<number>;

/** flowcheck's commands: each one's one-line summary, and its module, imported only when it is the one asked for. */
const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  init: {
    summary: "write a first flowcheck.config.json and scenario, and the npm scripts that run them",
    load: async () => (await import("./init-command.ts")).initCommand,
  },
  test: {
    summary: "run specs and scenarios (default: scenarios/), then the summary, checklist and report",
    load: async () => (await import("./test-command.ts")).testCommand,
  },
  check: {
    summary: "check scenario files against their schema and flows, without running a turn",
    load: async () => (await import("./check-command.ts")).checkCommand,
  },
  transcript: {
    summary: "print a failure transcript, or conversations of a run's results",
    load: async () => (await import("./transcript-command.ts")).transcriptCommand,
  },
  strength: {
    summary: "measure how much of the flows the scenarios would notice broken, by run-time mutants",
    load: async () => (await import("./strength-command.ts")).strengthCommand,
  },
  report: {
    summary: "render a run's results (or several, merged) as one HTML page",
    load: async () => (await import("./report-command.ts")).reportCommand,
  },
  merge: {
    summary: "merge the results of several runs, such as a sharded run's, into one",
    load: async () => (await import("./merge-command.ts")).mergeCommand,
  },
  record: {
    summary: "hold a conversation with a flow and save it as a scenario",
    load: async () => (await import("./record-command.ts")).recordCommand,
  },
  "from-session": {
    summary: "turn a stored session into a scenario and its cassette",
    load: async () => (await import("./from-session-command.ts")).fromSessionCommand,
  },
  "from-results": {
    summary: "write a conversation of a run's results, such as a simulated one, as a fixed scenario",
    load: async () => (await import("./from-results-command.ts")).fromResultsCommand,
  },
  judge: {
    summary: "label the judge's verdicts, and measure the judge against people's labels",
    load: async () => (await import("./judge-command.ts")).judgeCommand,
  },
  serve: {
    summary: "serve the project's flows over HTTP",
    load: async () => (await import("./serve-command.ts")).serveCommand,
  },
};

function commandList(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}${summary}`);
  return `Commands:\n${lines.join("\n")}`;
}

const HELP = () => `Usage: flowcheck <command> [<args>...]

${commandList()}

flowcheck <command> --help prints a command's usage; flowcheck --version, flowcheck's version.`;

/** The version in flowcheck's package.json, found above this file, whether it runs from src/ or a build. */
function version(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (manifest.name === "flowcheck" && manifest.version) return manifest.version;
  }
  return "unknown";
}

/** `flowcheck <args>`: the command `args[0]` names run with the rest; resolves to the exit code. */
export async function flowcheckCommand(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(HELP());
    return 0;
  }
  if (name === "--version" || name === "-v") {
    console.log(version());
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    const guess = closestName(name, Object.keys(COMMANDS));
    const meant = guess ? ` Did you mean "${guess}"?` : "";
    console.error(`flowcheck: unknown command "${name}".${meant}\n\n${commandList()}`);
    return 2;
  }
  return (await COMMANDS[name]!.load())(rest);
}
