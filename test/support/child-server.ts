import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface ChildServer {
  name: string;
  child: ChildProcess;
  url: string;
  /** Settles when the process has exited, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the process printed, for the failure messages (a 500's details go to its log). */
  output: () => string;
}

/**
 * Starts the BasicFlow fixture's server (`serve-basic-flow.ts`) as a child process on 127.0.0.1
 * with `env` over this process's environment, and resolves once it prints the URL it serves.
 */
export function startChildServer(env: Record<string, string>, name = "server"): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-basic-flow.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  let text = "";
  const output = () => text;
  return new Promise((ready, fail) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const url = /flowcheck: serving (http:\/\/127\.0\.0\.1:\d+) /.exec(text)?.[1];
      if (url) ready({ name, child, url, exited, output });
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.once("exit", (code, signal) =>
      fail(new Error(`server ${name} exited (${code ?? signal}) before listening:\n${text}`)),
    );
  });
}

/** Kills the server with SIGKILL, unless it has exited already, and waits for it to be gone. */
export async function killChildServer(server: ChildServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGKILL");
  await server.exited;
}
