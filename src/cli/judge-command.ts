import { closestName } from "../testing/scenario/closest-name.ts";

type Command = (args: readonly string[]) => Promise<number>;

/** `flowcheck judge`'s commands, each imported only when it is the one asked for. */
const SUBCOMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  label: {
    summary: "label a run's judged turns right or wrong, or merge labels downloaded from the report",
    load: async () => (await import("./judge-label-command.ts")).judgeLabelCommand,
  },
  calibrate: {
    summary: "grade the labelled answers again and measure how the judge agrees with the people",
    load: async () => (await import("./judge-calibrate-command.ts")).judgeCalibrateCommand,
  },
};

function list(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length)) + 2;
  return Object.entries(SUBCOMMANDS)
    .map(([name, { summary }]) => `  ${name.padEnd(width)}${summary}`)
    .join("\n");
}

const USAGE = () => `Usage: flowcheck judge <command> [<args>...]

Is the judge right? People label its verdicts; calibration measures the judge against them.

Commands:
${list()}

flowcheck judge <command> --help prints a command's usage.`;

/** `flowcheck judge <label | calibrate> …`. */
export async function judgeCommand(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE());
    return name === undefined ? 2 : 0;
  }
  if (!Object.hasOwn(SUBCOMMANDS, name)) {
    const guess = closestName(name, Object.keys(SUBCOMMANDS));
    console.error(
      `flowcheck judge: unknown command "${name}".${guess ? ` Did you mean "${guess}"?` : ""}\n\n${USAGE()}`,
    );
    return 2;
  }
  return (await SUBCOMMANDS[name]!.load())(rest);
}
