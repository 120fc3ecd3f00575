import { spawn } from "node:child_process";
import { type ChildRun, childEnvironment, FLOWCHECK } from "./child-run.ts";

/** `flowcheck judge label <args>` in `cwd`, `input` written to its stdin and then closed, as a pipe gives it. */
export function judgeLabelChild(cwd: string, input: string, args: string[] = []): Promise<ChildRun> {
  const child = spawn(process.execPath, [FLOWCHECK, "judge", "label", ...args], {
    cwd,
    env: childEnvironment(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
