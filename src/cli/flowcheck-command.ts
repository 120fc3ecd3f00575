import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { closestName } from "../testing/scenario/closest-name.ts";

/**
 * flowcheck's commands and their one-line summaries. `flowcheck <name>` runs `<name>Command` of
 * ./<name>-command.ts (from-session: `fromSessionCommand`), imported only when it is the one asked for.
 */
const COMMANDS: Readonly<Record<string, string>> = {
  init: "set this project up for flowcheck: its flowcheck.config.json",
  test: "run specs and scenarios (default: scenarios/), then the summary, checklist and report",
  check: "check scenario files against their schema and flows, without running a turn",
  transcript: "print a failure transcript, or conversations of a run's results",
  report: "render a run's results (or several, merged) as one HTML page",
  merge: "merge the results of several runs, such as a sharded run's, into one",
  record: "hold a conversation with a flow and save it as a scenario",
  "from-session": "turn a stored session into a scenario and its cassette",
  serve: "serve the project's flows over HTTP",
};

type Command = (args: readonly string[]) => Promise<number>;

function commandList(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;
  const lines = Object.entries(COMMANDS).map(([name, summary]) => `  ${name.padEnd(width)}${summary}`);
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

async function commandOf(name: string): Promise<Command> {
  const module = (await import(`./${name}-command.ts`)) as Record<string, Command>;
  const exported = `${name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())}Command`;
  return module[exported]!;
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
  return (await commandOf(name))(rest);
}
