import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { FIXTURES, requireFixtureProject } from "./fixture-projects.mjs";

/** The LangGraph fixture project's name under test/fixtures/. */
export const LANGGRAPH_FIXTURE = "langgraph-project";
/** The LangGraph fixture project: two deterministic graphs, with its own lockfile and node_modules. */
export const LANGGRAPH_PROJECT = join(FIXTURES, LANGGRAPH_FIXTURE);
const CLI = join(LANGGRAPH_PROJECT, "node_modules", ".bin", "langgraphjs");

// The dev server loads the graphs with its own TypeScript loader and registers its workers: measured
// here at about 6 s on an idle machine, so a loaded CI machine gets ten times that.
const START_DEADLINE_MS = 60_000;
const POLL_MS = 100;

export interface LanggraphDevServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  /** Kills the server's whole process group and removes its copy of the project. */
  close(): Promise<void>;
}

/**
 * Serves the fixture's graphs with `langgraphjs dev` on a free loopback port and resolves once it
 * answers. The server appends to its project's .gitignore and writes `.langgraph_api/`, so it runs
 * in a temporary copy of the project whose node_modules is a link to the fixture's installed one.
 * `project` is another project on the same packages, e.g. one whose graph does not load; `env`,
 * variables set (or, undefined, removed) in the server's environment over this process's. Throws,
 * saying how to install it, when the fixture project is not installed.
 */
export async function startLanggraphDevServer(
  project = LANGGRAPH_PROJECT,
  env: NodeJS.ProcessEnv = {},
): Promise<LanggraphDevServer> {
  requireFixtureProject(LANGGRAPH_FIXTURE);
  // The free port is closed again before the server binds it, and another process (a spec in the
  // other worker) may take it meanwhile: the server is then started again on another one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), project, env);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** The dev server could not listen: its port was taken between `freePort` and its listen. */
class PortTaken extends Error {}

async function startOn(port: number, project: string, env: NodeJS.ProcessEnv): Promise<LanggraphDevServer> {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-langgraph-"));
  cpSync(project, dir, {
    recursive: true,
    filter: (source) => !["node_modules", ".langgraph_api"].includes(basename(source)),
  });
  symlinkSync(join(LANGGRAPH_PROJECT, "node_modules"), join(dir, "node_modules"));
  const baseUrl = `http://127.0.0.1:${port}`;
  // This process's Node runs the CLI (its shebang would take whatever `node` is first on the PATH);
  // --studio-url keeps it from asking LangSmith's client for a host, and the environment from
  // sending analytics or traces anywhere.
  const child = spawn(
    process.execPath,
    [CLI, "dev", "--host", "127.0.0.1", "--port", String(port), "--no-browser", "--no-reload", "--studio-url", baseUrl],
    { cwd: dir, detached: true, env: serverEnv(env), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<string>((done) => child.once("exit", (code, signal) => done(`${code ?? signal}`)));
  let gone = false;
  void exited.then(() => (gone = true));
  // The server runs in a process group of its own (the CLI spawns the API server as its child, which
  // may outlive a CLI that failed): the group is killed on close, or as this process exits without it.
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group is gone already
    }
  };
  const abandon = () => {
    killGroup();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", abandon);
  const close = async () => {
    process.off("exit", abandon);
    killGroup();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (gone) {
      await close();
      throw new Error(
        `the LangGraph dev server exited (${await exited}) before it answered GET ${baseUrl}/ok; it printed:\n${tail(output)}`,
      );
    }
    if (output.includes("EADDRINUSE")) {
      await close();
      throw new PortTaken(`port ${port} was taken before the LangGraph dev server listened on it:\n${tail(output)}`);
    }
    if (await answers(`${baseUrl}/ok`)) return { baseUrl, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(
        `the LangGraph dev server did not answer GET ${baseUrl}/ok within ${START_DEADLINE_MS / 1000} s; it printed:\n${tail(output)}`,
      );
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

/**
 * This process's environment without LangSmith's and LangChain's settings (tracing, a LangSmith
 * gateway the model would be sent to), with `extra` over it, a variable set undefined left out.
 */
function serverEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([name]) => !/^(LANGSMITH|LANGCHAIN)_/.test(name));
  const merged = Object.entries({ ...Object.fromEntries(own), ...extra }).filter(([, value]) => value !== undefined);
  return {
    ...Object.fromEntries(merged),
    LANGGRAPH_CLI_NO_ANALYTICS: "1",
    LANGSMITH_TRACING: "false",
    BROWSER: "none",
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** A port nothing listens on now: the system's pick for port 0, released for the server to take. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

function tail(raw: string, chars = 4_000): string {
  const text = stripVTControlCharacters(raw);
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}
