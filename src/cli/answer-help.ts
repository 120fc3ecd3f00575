/**
 * Prints `usage` when the command was asked for help (`--help` or `-h`), so that a command never
 * takes the flag for a file name; whether it did, the command then done (exit 0).
 */
export function answerHelp(usage: string, args: readonly string[]): boolean {
  if (!args.includes("--help") && !args.includes("-h")) return false;
  console.log(usage);
  return true;
}
