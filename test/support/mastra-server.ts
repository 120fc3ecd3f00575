import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The Mastra fixture project: one agent on a scripted model, with its own lockfile and node_modules. */
export const MASTRA_PROJECT = resolve(import.meta.dirname, "..", "fixtures", "mastra-project");

// Loading @mastra/core and its server takes about 3 s on an idle machine; a loaded CI machine, more.
const START_DEADLINE_MS = 60_000;

export interface MastraServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  /** What the server has printed so far: the connections it refused are said there. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts the fixture's Mastra server on a port the system picks and resolves once it listens. Its
 * telemetry is off, and a preload refuses (and prints) any connection that is not to this machine.
 * Throws, saying how to install it, when the fixture's packages are not installed.
 */
export async function startMastraServer(): Promise<MastraServer> {
  if (!existsSync(join(MASTRA_PROJECT, "node_modules", "@mastra", "core")))
    throw new Error("the Mastra fixture project is not installed: npm ci --prefix test/fixtures/mastra-project");
  const child = spawn(process.execPath, ["--import", "./src/loopback-only.ts", "src/server.ts"], {
    cwd: MASTRA_PROJECT,
    env: { ...process.env, MASTRA_TELEMETRY_DISABLED: "1", NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  const close = async () => {
    process.off("exit", kill);
    kill();
    await exited;
  };
  const baseUrl = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the Mastra server did not listen within ${START_DEADLINE_MS / 1000} s:\n${output}`)),
      START_DEADLINE_MS,
    );
    const listening = () => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout.off("data", listening);
      done(url);
    };
    child.stdout.on("data", listening);
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`the Mastra server exited before it listened:\n${output}`));
    });
  });
  return { baseUrl, output: () => output, close };
}
