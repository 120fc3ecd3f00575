import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { appEnvironment } from "../../../../src/testing/target/start/app-environment.ts";
import { StartedApps, type StartableEntry } from "../../../../src/testing/target/start/started-apps.ts";
import { isFlowcheckError } from "../../../../src/errors.ts";
import {
  alive,
  startedAppEntry,
  startedAppProject,
  type StartedAppProject,
} from "../../../support/started-app-project.ts";

// StartedApps in this process, starting the app of a temp project (a node server) as a run does.
let project: StartedAppProject | undefined;
let apps: StartedApps | undefined;
let server: Server | undefined;

afterEach(async () => {
  await apps?.closeAll();
  server?.close();
  for (const pid of project?.starts() ?? []) if (alive(pid)) process.kill(pid, "SIGKILL");
  project?.remove();
  [project, apps, server] = [undefined, undefined, undefined];
});

async function appsFor(
  start: Parameters<typeof startedAppEntry>[0] = {},
  options: { env?: Record<string, string>; seamOf?: ConstructorParameters<typeof StartedApps>[0]["seamOf"] } = {},
): Promise<{ entry: StartableEntry; project: StartedAppProject; apps: StartedApps }> {
  project = await startedAppProject("started-apps");
  const entry = startedAppEntry({ ...start, cwd: project.appDir }) as StartableEntry;
  apps = new StartedApps({
    env: options.env ?? {},
    logDir: join(project.path, "logs"),
    ...(options.seamOf ? { seamOf: options.seamOf } : {}),
  });
  return { entry, project, apps };
}

test("an app is started once for every ask, {{port}} the same port in its baseUrl, its ready URL and its env, and stopped by closeAll", async () => {
  const { entry, project, apps } = await appsFor();
  const [first, second] = await Promise.all([apps.app("desk", entry), apps.app("desk", entry)]);
  assert.equal(first, second);
  assert.equal(first.baseUrl, `http://127.0.0.1:${first.port}`);
  assert.equal(project.appEnv()["PORT"], String(first.port));
  const [appPid, ...more] = project.starts();
  assert.deepEqual(more, []);
  assert.equal((await fetch(`${first.baseUrl}/health`)).status, 200);
  await apps.closeAll();
  // The shell's command too: the whole group is stopped.
  assert.equal(alive(first.pid!), false);
  assert.equal(alive(appPid!), false);
});

test("the seam's variables reach the app, OPENAI_API_BASE is dropped for them, and the seam is closed after the app has stopped", async () => {
  const order: string[] = [];
  let pid: number | undefined;
  const seamOf = async (name: string) => ({
    env: { SEAM_URL: `http://127.0.0.1:1/${name}` },
    close: async () => void order.push(`seam closed, app ${alive(pid!) ? "running" : "stopped"}`),
  });
  const { entry, project, apps } = await appsFor({}, { env: { OPENAI_API_BASE: "http://elsewhere.test/v1" }, seamOf });
  pid = (await apps.app("desk", entry)).pid;
  const env = project.appEnv();
  assert.equal(env["SEAM_URL"], "http://127.0.0.1:1/desk");
  assert.equal(env["OPENAI_API_BASE"], null);
  await apps.closeAll();
  assert.deepEqual(order, ["seam closed, app stopped"]);
});

test("a start that fails closes the seam made for it, and says what happened with the log's last lines", async () => {
  let closed = 0;
  const seamOf = async () => ({ env: {}, close: async () => void (closed += 1) });
  const { entry, apps } = await appsFor({ env: { APP_MODE: "exit" } }, { seamOf });
  await assert.rejects(apps.app("desk", entry), (error) => {
    assert.ok(isFlowcheckError(error, "target_start_failed"));
    assert.match(error.message, /exited \(code 3\) before http:\/\/127\.0\.0\.1:\d+\/health answered/);
    assert.match(error.message, /\| app cannot open its database/);
    // Colours are stripped from the quoted lines.
    assert.doesNotMatch(error.message, /\u001b/);
    return true;
  });
  assert.equal(closed, 1);
});

/** A server answering /health on a port of its own, as an app a developer left running. */
async function running(): Promise<number> {
  server = createServer((_, response) => response.end("ok"));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

test("reuse: a server already answering at ready is used, never started nor stopped", async () => {
  const port = await running();
  const ready = `http://127.0.0.1:${port}/health`;
  const { entry, project, apps } = await appsFor({ reuse: true, ready });
  const app = await apps.app("desk", { ...entry, baseUrl: `http://127.0.0.1:${port}` });
  assert.deepEqual({ baseUrl: app.baseUrl, pid: app.pid }, { baseUrl: `http://127.0.0.1:${port}`, pid: undefined });
  await apps.closeAll();
  assert.deepEqual(project.starts(), []);
  assert.equal((await fetch(ready)).status, 200, "the server reused still runs");
});

test("reuse under CI=true starts the app as if reuse were false", async () => {
  const port = await running();
  const { entry, apps } = await appsFor(
    { reuse: true, ready: `http://127.0.0.1:${port}/health` },
    { env: { CI: "true" } },
  );
  const app = await apps.app("desk", entry);
  assert.notEqual(app.pid, undefined);
  await apps.closeAll();
  assert.equal(alive(app.pid!), false);
});

test("an app's environment is flowcheck's without the provider and judge keys, then start.env, then the seam's without OPENAI_API_BASE", () => {
  const own = {
    PATH: "/bin",
    OPENAI_API_KEY: "sk-1",
    USER_API_KEY: "sk-2",
    JUDGE_API_KEY: "sk-3",
    OPENAI_API_BASE: "http://x",
    GREETING: "hi",
  };
  assert.deepEqual(appEnvironment(own, { GREETING: "hello", PORT: "4000" }), {
    PATH: "/bin",
    OPENAI_API_BASE: "http://x",
    GREETING: "hello",
    PORT: "4000",
  });
  assert.deepEqual(appEnvironment(own, {}, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "seam" }), {
    PATH: "/bin",
    GREETING: "hi",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "seam",
  });
});
