import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { childEnvironment, runCommand, runFlowcheck, ROOT } from "../support/child-run.ts";
import { alive, startedAppEntry, startedAppProject, type StartedAppProject } from "../support/started-app-project.ts";

// flowcheck test starting a target's app: a node server in a temp project, started by the run
// before anything plays, once for every scenario file that uses it, and stopped at the end, on a
// start that fails and on Ctrl-C.
const FLOWCHECK = join(ROOT, "src", "cli", "flowcheck.mjs");
const KEYS = {
  OPENAI_API_KEY: "sk-run-key-123456",
  USER_API_KEY: "sk-user-key-123456",
  JUDGE_API_KEY: "sk-judge-123456",
};

let project: StartedAppProject | undefined;

afterEach(() => {
  for (const pid of project?.starts() ?? []) if (alive(pid)) process.kill(pid, "SIGKILL");
  project?.remove();
  project = undefined;
});

function scenario(label: string): object {
  return {
    flowName: "DeskFlow",
    target: "desk",
    turns: [{ label, input: label, expectedActiveStep: "Desk", responseMustInclude: [`you said ${label}`] }],
  };
}

/** A project whose target `desk` is the app, started as `start` says, with two scenario files using it. */
async function deskProject(start: Parameters<typeof startedAppEntry>[0] = {}): Promise<StartedAppProject> {
  project = await startedAppProject("started-app-run");
  writeFileSync(
    join(project.path, "flowcheck.config.json"),
    JSON.stringify({ targets: { desk: startedAppEntry(start) } }),
  );
  mkdirSync(join(project.path, "chats"));
  for (const name of ["first", "second"])
    writeFileSync(join(project.path, "chats", `${name}.scenario.json`), JSON.stringify(scenario(name)));
  return project;
}

function resultsOf(path: string): RunResults {
  return JSON.parse(readFileSync(join(path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

test("two scenario files of one run play against one start of the app, on the port {{port}} chose, its output in test/.tmp/<target>.log, its environment without the provider keys", async () => {
  const { path, starts, appEnv } = await deskProject({ env: { GREETING: "Hi ${DESK_GREETING}" } });
  const run = await runFlowcheck(
    ["test", "chats"],
    { ...KEYS, DESK_GREETING: "there", OPENAI_API_BASE: "http://127.0.0.1:9/v1" },
    undefined,
    path,
  );
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  const { conversations } = resultsOf(path);
  assert.deepEqual(conversations.map((conversation) => [conversation.name, conversation.outcome]).sort(), [
    ["first", "passed"],
    ["second", "passed"],
  ]);
  const [pid, ...more] = starts();
  assert.deepEqual(more, [], "the app started once for both files");
  assert.equal(alive(pid!), false, "the app is stopped when the run ends");
  const env = appEnv();
  assert.deepEqual(
    { OPENAI_API_KEY: env["OPENAI_API_KEY"], USER_API_KEY: env["USER_API_KEY"], JUDGE_API_KEY: env["JUDGE_API_KEY"] },
    { OPENAI_API_KEY: null, USER_API_KEY: null, JUDGE_API_KEY: null },
  );
  // No seam serves this app's model, so a base URL of its own is left as the run has it.
  assert.equal(env["OPENAI_API_BASE"], "http://127.0.0.1:9/v1");
  assert.equal(env["GREETING"], "Hi there");
  const log = readFileSync(join(path, "test", ".tmp", "desk.log"), "utf8");
  assert.match(log, new RegExp(`app listening on ${env["PORT"]}\\n`));
  assert.match(log, /app stderr line/);
  // {{port}} is one port: the app listened on the one its baseUrl was given.
  for (const conversation of conversations)
    assert.equal(conversation.target?.baseUrl, `http://127.0.0.1:${env["PORT"]}`);
});

test("a command that exits before it is ready stops the run before anything plays: exit 2, one message quoting the log's last lines, no process left", async () => {
  const { path, starts } = await deskProject({ env: { APP_MODE: "exit" } });
  const run = await runFlowcheck(["test", "chats"], {}, undefined, path);
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 2, output);
  assert.match(
    output,
    /stopped before playing anything: target_start_failed: Target desk: its app, started with `node server\.mjs` in \S+app, exited \(code 3\)/,
  );
  assert.match(
    output,
    /test\/\.tmp\/desk\.log:\n\s*\| app booting on port \d+\n\s*\| app stderr line\n\s*\| app cannot open its database/,
  );
  assert.doesNotMatch(output, /DeskFlow/, "no conversation played");
  for (const pid of starts()) assert.equal(alive(pid), false);
});

test("an app never ready within start.timeoutMs stops the run the same way, its process group stopped", async () => {
  const { path, starts } = await deskProject({ env: { APP_MODE: "unready" }, timeoutMs: 1500 });
  const began = Date.now();
  const run = await runFlowcheck(["test", "chats"], {}, undefined, path);
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 2, output);
  assert.match(
    output,
    /target_start_failed: Target desk: .* was not ready after 1500 ms: GET http:\/\/127\.0\.0\.1:\d+\/health never answered a status below 500 \(last: it answered 503\)/,
  );
  assert.match(output, /\| app listening on \d+/);
  assert.ok(Date.now() - began < 15_000, "the run stopped soon after the timeout");
  const [pid] = starts();
  assert.equal(alive(pid!), false);
});

test("SIGINT to flowcheck test while a turn is in flight stops the app's process group before flowcheck ends", async () => {
  const { path, starts } = await deskProject({ env: { APP_DELAY: "60000" } });
  const child = spawn(process.execPath, [FLOWCHECK, "test", "chats"], {
    cwd: path,
    env: childEnvironment(),
    stdio: "ignore",
  });
  try {
    const log = join(path, "test", ".tmp", "desk.log");
    // Ready, and the first turn sent: the app holds its answer for a minute.
    while (!(existsSync(log) && readFileSync(log, "utf8").includes("listening"))) await sleep(50);
    await sleep(500);
    const [pid] = starts();
    assert.equal(alive(pid!), true);
    const exited = once(child, "exit");
    child.kill("SIGINT");
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    assert.deepEqual({ code, signal }, { code: null, signal: "SIGINT" });
    assert.equal(alive(pid!), false, "the app was stopped before flowcheck ended");
    assert.match(readFileSync(log, "utf8"), /app stopping on SIGTERM/);
  } finally {
    child.kill("SIGKILL");
  }
});

test("a spec played alone with node --test starts the app once for its scenario files and stops it when its tests end", async () => {
  const { path, starts } = await deskProject();
  const testing = join(ROOT, "src", "testing", "index.ts");
  writeFileSync(
    join(path, "desk.spec.ts"),
    `import { describeFlowScenarios } from ${JSON.stringify(testing)};\ndescribeFlowScenarios("DeskFlow", { flows: [], dir: "chats" });\n`,
  );
  const run = await runCommand(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=tap", "desk.spec.ts"],
    {},
    undefined,
    path,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /# pass [1-9]/);
  const [pid, ...more] = starts();
  assert.deepEqual(more, [], "one start for both files");
  assert.equal(alive(pid!), false, "no app left running after the spec");
  assert.match(readFileSync(join(path, "test", ".tmp", "desk.log"), "utf8"), /app stopping on SIGTERM/);
});

test("with --workers 2 each process starts its own app for the specs it plays, a worker logging to test/.tmp/<target>-worker-<pid>.log, and none is left running", async () => {
  const { path, starts } = await deskProject();
  const testing = JSON.stringify(join(ROOT, "src", "testing", "index.ts"));
  for (const name of ["first", "second"])
    writeFileSync(
      join(path, `${name}.spec.ts`),
      `import { describeFlowScenarios } from ${testing};\n` +
        `describeFlowScenarios("DeskFlow", { flows: [], dir: "chats", files: ["chats/${name}.scenario.json"] });\n`,
    );
  const run = await runFlowcheck(["test", "--workers", "2", "first.spec.ts", "second.spec.ts"], {}, undefined, path);
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  assert.deepEqual(
    resultsOf(path)
      .conversations.map((conversation) => [conversation.name, conversation.outcome])
      .sort(),
    [
      ["first", "passed"],
      ["second", "passed"],
    ],
  );
  assert.equal(starts().length, 2, "one app per process");
  for (const pid of starts()) assert.equal(alive(pid), false);
  const logs = readdirSync(join(path, "test", ".tmp")).filter((file) => file.endsWith(".log"));
  assert.equal(logs.length, 2, logs.join(", "));
  assert.ok(logs.includes("desk.log"), logs.join(", "));
  assert.ok(
    logs.some((file) => /^desk-worker-\d+\.log$/.test(file)),
    logs.join(", "),
  );
});
