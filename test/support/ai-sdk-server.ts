import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The AI SDK fixture project: a booking chat route on the SDK's mock model, with its own lockfile and node_modules. */
export const AI_SDK_PROJECT = resolve(import.meta.dirname, "..", "fixtures", "ai-sdk-project");

/**
 * Throws, saying how to install it, when the fixture project's packages are not installed: its
 * specs fail then rather than skip, since a missing install would otherwise pass unnoticed.
 */
export function requireAiSdkFixture(): void {
  if (!existsSync(join(AI_SDK_PROJECT, "node_modules", "ai", "package.json")))
    throw new Error(
      "the AI SDK fixture project is not installed: run npm ci --prefix test/fixtures/ai-sdk-project (npm test installs it)",
    );
}

/** The fixture's own `ai` package, loaded from its node_modules: its exports, untyped. */
export async function fixtureAi(): Promise<Record<string, any>> {
  requireAiSdkFixture();
  const at = createRequire(join(AI_SDK_PROJECT, "package.json")).resolve("ai");
  return (await import(pathToFileURL(at).href)) as Record<string, any>;
}

export interface AiSdkServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  /** What the server printed: its log, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

/**
 * The Mastra fixture's preload that refuses, and says on stderr, every connection to anywhere but
 * this machine: a server started with it proves that nothing phoned home.
 */
const LOOPBACK_ONLY = resolve(import.meta.dirname, "..", "fixtures", "mastra-project", "src", "loopback-only.ts");

export interface AiSdkServerOptions {
  /** The server's module; the fixture's `server.mjs` unless said. */
  file?: string;
  /** Variables set on top of this process's environment (`BOOKING_MODEL`, `OPENAI_BASE_URL`, …). */
  env?: Record<string, string>;
  /** Preloads the loopback guard, so any connection off this machine fails and is logged. */
  loopbackOnly?: boolean;
}

/** Starts the fixture's booking chat (`server.mjs`) on a free loopback port, resolving once it prints where it listens. */
export function startAiSdkServer(options: AiSdkServerOptions = {}): Promise<AiSdkServer> {
  requireAiSdkFixture();
  const file = options.file ?? join(AI_SDK_PROJECT, "server.mjs");
  const preload = options.loopbackOnly ? ["--import", pathToFileURL(LOOPBACK_ONLY).href] : [];
  const child: ChildProcess = spawn(process.execPath, [...preload, file], {
    cwd: AI_SDK_PROJECT,
    env: { ...process.env, PORT: "0", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let text = "";
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return new Promise((ready, fail) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (baseUrl) ready({ baseUrl, output: () => text, close });
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.once("exit", (code, signal) =>
      fail(new Error(`${file} exited (${code ?? signal}) before listening:\n${text}`)),
    );
  });
}
