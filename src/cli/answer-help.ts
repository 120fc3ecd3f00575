/**
 * Prints `usage` and exits when the command was asked for help (`--help` or `-h`), so that a
 * command never takes the flag for a file name.
 */
export function answerHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  if (!args.includes("--help") && !args.includes("-h")) return;
  console.log(usage);
  process.exit(0);
}
