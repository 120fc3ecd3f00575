import { spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The child must not write its results and coverage into, or take slots from, the run that runs the test, nor inherit its store or model.
const INHERITED_NOT = ["NODE_TEST_CONTEXT", "FLOWCHECK_COORDINATOR", "FLOWCHECK_COVERAGE_RUN", "FLOW_BASE_URL", "FLOW_SCENARIOS", "SQLITE_PATH", "SESSION_STORE", "FLOW_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "JUDGE", "FLOW_REPEAT"];

/** Runs `node <args>` in the project folder with `env` over a clean copy of this one, `input` piped to its stdin. */
export function runNode(args: readonly string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<ChildRun> {
  const env = { ...process.env };
  for (const name of INHERITED_NOT) delete env[name];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? "");
  return new Promise((done, reject) => {
    child.on("error", reject);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Runs a flow suite (e.g. `test/flows/basic-flow.spec.ts`) on the scenario files named, as `npm run test:flows -- <files>` does. */
export function runFlowSuite(spec: string, scenarioFiles: readonly string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode(["--import", "tsx", "--test", "--test-reporter=tap", spec], { env: { ...env, FLOW_SCENARIOS: scenarioFiles.join(process.platform === "win32" ? ";" : ":") } });
}
