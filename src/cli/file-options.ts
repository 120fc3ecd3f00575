import { isFlowcheckError } from "../errors.ts";
import { ArgumentError } from "./run-arguments.ts";

/**
 * The files or folders `args` name and the file-path options among `names` they give (`--out x`
 * or `--out=x`). Throws an ArgumentError for another option, or one without its path.
 */
export function fileOptionsOf<Name extends `--${string}`>(
  args: readonly string[],
  names: readonly Name[],
): { inputs: string[]; options: Partial<Record<Name, string>> } {
  const inputs: string[] = [];
  const options: Partial<Record<Name, string>> = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const option = names.find((each) => each === name);
    if (option) {
      const value = inline ?? args[++index];
      if (!value) throw new ArgumentError(`${option} takes a file path.`);
      options[option] = value;
    } else if (arg.startsWith("-")) {
      const list = `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
      throw new ArgumentError(`unknown option ${arg}; the options are ${list}.`);
    } else inputs.push(arg);
  }
  return { inputs, options };
}

/** Prints why `flowcheck <command>` cannot use its files (an ArgumentError or a FlowcheckError) and gives 2; rethrows anything else. */
export function refusedFiles(command: string, error: unknown): 2 {
  if (error instanceof ArgumentError) console.error(`flowcheck ${command}: ${error.message}`);
  else if (isFlowcheckError(error)) console.error(`flowcheck ${command}: ${error.message} (${error.code})`);
  else throw error;
  return 2;
}
