import { type ChildRun, FLOWCHECK, runCommand } from "./child-run.ts";

/** `flowcheck judge label <args>` in `cwd`, `input` written to its stdin and then closed, as a pipe gives it. */
export function judgeLabelChild(cwd: string, input: string, args: string[] = []): Promise<ChildRun> {
  return runCommand(process.execPath, [FLOWCHECK, "judge", "label", ...args], {}, undefined, cwd, input);
}
