import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { loadTargetConfig } from "../../src/testing/target/target-config.ts";
import {
  LANGGRAPH_PROJECT,
  startLanggraphDevServer,
  type LanggraphDevServer,
} from "../support/langgraph-dev-server.ts";
import { AI_SDK_PROJECT, requireAiSdkFixture } from "../support/ai-sdk-server.ts";
import { closedPort } from "../support/loopback-server.ts";
import { printedFiles } from "../support/markdown.ts";
import { npxFlowcheck, shellIn } from "../support/npx-flowcheck.ts";
import { packedInstall, packedTarball, type PackedInstall } from "../support/packed-install.ts";
import { tempDir } from "../support/temp-path.ts";

// The guides "Testing a LangGraph graph" (docs/testing-langgraph.md), "Testing your own HTTP API"
// (docs/testing-http-api.md) and "Testing an AI SDK app" (docs/testing-ai-sdk.md) print every file a team writes in its own repository. This installs
// the packed package in a new project that holds nothing of this repository's, runs the guide's
// install line there, builds exactly the printed files (the server's in its folder), serves the
// server as the guide says, and runs the guide's command literally, with only the port changed;
// then it makes the change to the scenario the guide describes and checks the failure the guide
// prints. The guide's `npx flowcheck init` runs in a project of its own.

const ROOT = resolve(import.meta.dirname, "..", "..");

interface Guide {
  text: string;
  /** The server's folder, the printed files under it (its prefix removed), and the rest: flowcheck's. */
  serverFolder: string;
  server: Map<string, string>;
  flowcheck: Map<string, string>;
  /** The `sh` lines that start with `prefix`, as printed. */
  command(prefix: string): string;
  /** The fenced `text` block that follows the line `marker`. */
  output(marker: string): string;
}

function guideOf(file: string, serverFolder: string): Guide {
  const text = readFileSync(join(ROOT, "docs", file), "utf8");
  const server = new Map<string, string>();
  const flowcheck = new Map<string, string>();
  for (const [path, content] of printedFiles(text)) {
    if (path.startsWith(`${serverFolder}/`)) server.set(path.slice(serverFolder.length + 1), content);
    else flowcheck.set(path, content);
  }
  return {
    text,
    serverFolder,
    server,
    flowcheck,
    command(prefix) {
      const lines = [...text.matchAll(/^```sh\n([\s\S]*?)\n```$/gm)].flatMap((block) => block[1]!.split("\n"));
      const found = lines.filter((line) => line.startsWith(prefix));
      assert.equal(found.length, 1, `docs/${file} prints ${found.length} commands starting with ${prefix}`);
      return found[0]!;
    },
    output(marker) {
      const at = text.indexOf(`${marker}\n\n\`\`\`text\n`);
      assert.notEqual(at, -1, `docs/${file} prints no text block after "${marker}"`);
      const start = text.indexOf("```text\n", at) + "```text\n".length;
      return text.slice(start, text.indexOf("\n```", start));
    },
  };
}

function writeFiles(root: string, files: Map<string, string>, change: (text: string) => string = (text) => text) {
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), change(text));
  }
}

/**
 * A new project with the package installed as the guide says: the tarball put where the guide's
 * install line looks for it and that line run; then the server's printed files in their folder.
 */
async function guideProject(guide: Guide): Promise<PackedInstall> {
  const project = await packedInstall();
  try {
    const line = guide.command("npm i -D ");
    const tarball = resolve(project.project, line.slice("npm i -D ".length));
    mkdirSync(dirname(tarball), { recursive: true });
    copyFileSync((await packedTarball()).tarball, tarball);
    const installed = await shellIn(project, line);
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    writeFiles(join(project.project, guide.serverFolder), guide.server);
    return project;
  } catch (error) {
    await project.remove();
    throw error;
  }
}

function resultsOf(project: PackedInstall): RunResults {
  return JSON.parse(readFileSync(join(project.project, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

/** `file:line` of the line of `file` (in the guide's printed files) that holds `needle`. */
function lineOf(files: Map<string, string>, file: string, needle: string): string {
  const line =
    files
      .get(file)!
      .split("\n")
      .findIndex((text) => text.includes(needle)) + 1;
  assert.ok(line > 0, `${file} has no line holding ${needle}`);
  return `${file}:${line}`;
}

/** The guide's passing summary line and failing first line are what the run printed. */
function assertPrinted(output: string, printed: string) {
  for (const line of printed.split("\n").filter((text) => text.trim() !== "" && !text.startsWith("…")))
    assert.ok(output.includes(line.trim()), `the run did not print the guide's line:\n${line}\n---\n${output}`);
}

/**
 * Runs the guide's command that starts with `prefix`, literally, in `project`: it exits 0, its one
 * conversation passed with each turn stored on its step, and it prints the guide's passing output.
 * Resolves to what it printed.
 */
async function assertPassingRun(
  project: PackedInstall,
  guide: Guide,
  prefix: string,
  steps: [label: string, step: string][],
): Promise<string> {
  const run = await shellIn(project, guide.command(prefix));
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  const [conversation, ...others] = resultsOf(project).conversations;
  assert.equal(others.length, 0, output);
  assert.equal(conversation?.outcome, "passed", output);
  assert.deepEqual(
    conversation!.turns.map((turn) => [turn.label, turn.outcome, turn.stored?.step]),
    steps.map(([label, step]) => [label, "passed", step]),
  );
  assertPrinted(output, guide.output("A passing run ends with:"));
  return output;
}

async function assertEntriesLoad(guide: Guide, env: Record<string, string>) {
  const entries = [...guide.text.matchAll(/^```json\n(\{\n {2}"kind"[\s\S]*?)\n```$/gm)].map((block) => block[1]!);
  assert.ok(entries.length > 0);
  const dir = await tempDir("target-guide-entries");
  try {
    for (const entry of entries) {
      writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets: { t: JSON.parse(entry) } }));
      assert.ok(loadTargetConfig(dir.path, env)?.targets["t"], entry);
    }
  } finally {
    dir.remove();
  }
}

/**
 * The guide's install line names the tarball `npm pack` makes and the published package, and
 * installed it as a dev dependency; each printed `$schema` names a schema the installed package holds.
 */
function assertInstalled(project: PackedInstall, guide: Guide, tarball: string) {
  assert.equal(basename(guide.command("npm i -D ")), basename(tarball));
  assert.ok(guide.text.includes("`npm i -D flowcheck`"), "the guide names the published package's install line");
  const manifest = JSON.parse(readFileSync(join(project.project, "package.json"), "utf8")) as {
    devDependencies?: Record<string, string>;
  };
  assert.ok(manifest.devDependencies?.["flowcheck"], JSON.stringify(manifest));
  for (const [path, text] of guide.flowcheck) {
    const { $schema } = JSON.parse(text) as { $schema?: string };
    assert.ok($schema, `${path} names no $schema`);
    assert.ok(existsSync(join(project.project, dirname(path), $schema)), `${path}: ${$schema} is not in the project`);
  }
}

/**
 * The guide's `npx flowcheck init`, run literally in `project`, writes files `npx flowcheck check`
 * accepts, its config's `$schema` the printed config's; then, as the guide says, its first scenario
 * is deleted and the printed files (through `change`) take the place of its config, and the
 * guide's check line accepts the printed scenario.
 */
async function assertInitAsPrinted(
  project: PackedInstall,
  guide: Guide,
  checkPrefix: string,
  change: (text: string) => string,
) {
  const init = await shellIn(project, guide.command("npx flowcheck init"));
  assert.equal(init.code, 0, init.stdout + init.stderr);
  const first = await npxFlowcheck(project, ["check"]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(first.stdout, /^1 valid, 0 invalid$/m);
  const schemaOf = (text: string) => (JSON.parse(text) as { $schema?: string }).$schema;
  assert.equal(
    schemaOf(readFileSync(join(project.project, "flowcheck.config.json"), "utf8")),
    schemaOf(guide.flowcheck.get("flowcheck.config.json")!),
  );
  rmSync(join(project.project, "scenarios", "first.scenario.json"));
  writeFiles(project.project, guide.flowcheck, change);
  const printed = await shellIn(project, guide.command(checkPrefix));
  assert.equal(printed.code, 0, printed.stdout + printed.stderr);
  assert.match(printed.stdout, /^1 valid, 0 invalid$/m);
  return printed.stdout;
}

describe("docs/testing-langgraph.md", () => {
  const guide = guideOf("testing-langgraph.md", "booking-graph");
  const SCENARIO = "scenarios/booking/table-for-four.scenario.json";
  let server: LanggraphDevServer | undefined;
  let project: PackedInstall | undefined;
  let initProject: PackedInstall | undefined;

  /** The printed files' server address made the served graph's. */
  let toServer: (text: string) => string = (text) => text;

  before(async () => {
    [project, initProject] = await Promise.all([guideProject(guide), packedInstall()]);
    // The dev server serves a copy of the graph's folder, its packages the fixture project's.
    server = await startLanggraphDevServer(join(project.project, guide.serverFolder));
    toServer = (text) => text.replaceAll("http://127.0.0.1:2024", server!.baseUrl);
    writeFiles(project.project, guide.flowcheck, toServer);
  });

  after(async () => {
    await server?.close();
    await Promise.all([project?.remove(), initProject?.remove()]);
  });

  test("the guide prints the graph project, the config and the scenario", () => {
    assert.deepEqual([...guide.server.keys()].sort(), ["langgraph.json", "package.json", "src/booking.ts"]);
    assert.deepEqual([...guide.flowcheck.keys()].sort(), ["flowcheck.config.json", SCENARIO]);
    // The dev server command the guide prints: the flags the harness serves the graph with.
    const serve = guide.command("LANGGRAPH_CLI_NO_ANALYTICS=1 ");
    for (const flag of ["dev", "--port 2024", "--host 127.0.0.1", "--no-browser"])
      assert.ok(serve.includes(flag), serve);
  });

  test("the printed install line installs the packed tarball as a dev dependency, and every printed $schema is in it", async () =>
    assertInstalled(project!, guide, (await packedTarball()).tarball));

  test("the printed init writes files check accepts, and the printed check accepts the printed ones in their place", async () => {
    const checked = await assertInitAsPrinted(initProject!, guide, "FLOW_TARGET=booking npx flowcheck check", toServer);
    // With the graph served, check held the scenario's steps to its nodes.
    assert.doesNotMatch(checked, /not reachable/);
  });

  test("the guide's graph entry for a step kept in a state key loads", () => assertEntriesLoad(guide, {}));

  test("the agent the tool-call section prints is the fixture's agent graph, and its turns are turns of the fixture's scenario that test/cli/run-langgraph-target.spec.ts plays", () => {
    const section = guide.text.slice(guide.text.indexOf("## An agent's tool calls"));
    const graph = /```ts\n([\s\S]*?)\n```/.exec(section)![1]!;
    const agent = readFileSync(join(LANGGRAPH_PROJECT, "src", "agent.ts"), "utf8");
    for (const line of graph.split("\n").filter((text) => text.trim() !== ""))
      assert.ok(agent.includes(line), `the fixture's agent.ts has no line ${line}`);
    const turns = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(section)![1]!) as unknown[];
    const fixture = JSON.parse(
      readFileSync(
        join(ROOT, "test", "fixtures", "langgraph-scenarios", "tools", "passing", "agent.scenario.json"),
        "utf8",
      ),
    ) as { turns: unknown[] };
    for (const turn of turns)
      assert.ok(
        fixture.turns.some((played) => isDeepStrictEqual(played, turn)),
        JSON.stringify(turn),
      );
  });

  test("the printed command plays the printed scenario against the served graph, every turn passing", async () => {
    const output = await assertPassingRun(project!, guide, "FLOW_TARGET=booking npx flowcheck test", [
      ["asks the party size", "party_size"],
      ["refuses twelve guests", "party_size"],
      ["takes four guests", "booking_day"],
      ["books Friday", "confirm_booking"],
    ]);
    // The guide quotes the graph's summary line in its text, where it wraps: the checklist it can show.
    const summary = /^ {2}(booking +3\/3 steps · 0\/0 tools · checklist \S+ ✓, \d+ n\/a)$/m.exec(output)?.[1];
    assert.ok(summary, output);
    assert.ok(guide.text.replace(/\s+/g, " ").includes(`\`${summary.replace(/\s+/g, " ")}\``), summary);
  });

  test("the change the guide describes fails at its turn, with the file's line, as the guide prints", async () => {
    const file = join(project!.project, SCENARIO);
    const scenario = readFileSync(file, "utf8");
    assert.ok(scenario.includes('"expectState": { "guests": 4 }'));
    writeFileSync(file, scenario.replace('"expectState": { "guests": 4 }', '"expectState": { "guests": 6 }'));
    try {
      const run = await shellIn(project!, guide.command("FLOW_TARGET=booking npx flowcheck test"));
      const output = run.stdout + run.stderr;
      assert.equal(run.code, 1, output);
      const where = lineOf(guide.flowcheck, SCENARIO, '"label": "takes four guests"');
      assert.match(output, new RegExp(`${where.replaceAll(".", "\\.")}: turn 3 'takes four guests': `), output);
      assertPrinted(output, guide.output("It fails at that turn:"));
      assert.deepEqual(
        resultsOf(project!).conversations[0]!.turns.map((turn) => turn.outcome),
        ["passed", "passed", "failed", "skipped"],
      );
    } finally {
      writeFileSync(file, scenario);
    }
  });
});

/** The printed server command, with its port changed, run by a shell in `cwd` until it prints that it listens. */
async function startPrinted(line: string, cwd: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn("/bin/sh", ["-c", line], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const close = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // gone already
    }
    await exited;
  };
  return new Promise((ready, fail) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) ready({ url, close });
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.once("exit", (code) => fail(new Error(`${line} exited (${code}) before listening:\n${output}`)));
  });
}

describe("docs/testing-http-api.md", () => {
  const guide = guideOf("testing-http-api.md", "returns-api");
  const SCENARIO = "scenarios/returns/broken-lamp.scenario.json";
  let project: PackedInstall | undefined;
  let initProject: PackedInstall | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;

  before(async () => {
    [project, initProject] = await Promise.all([guideProject(guide), packedInstall()]);
    const port = String(await closedPort());
    server = await startPrinted(
      guide.command("SUPPORT_API_TOKEN=dev-token PORT=").replace("3100", port),
      join(project.project, guide.serverFolder),
    );
    writeFiles(project.project, guide.flowcheck, (text) => text.replaceAll("http://127.0.0.1:3100", server!.url));
  });

  after(async () => {
    await server?.close();
    await Promise.all([project?.remove(), initProject?.remove()]);
  });

  test("the guide prints the server, the config and the scenario", () => {
    assert.deepEqual([...guide.server.keys()], ["server.mjs"]);
    assert.deepEqual([...guide.flowcheck.keys()].sort(), ["flowcheck.config.json", SCENARIO]);
  });

  test("the printed install line installs the packed tarball as a dev dependency, and every printed $schema is in it", async () =>
    assertInstalled(project!, guide, (await packedTarball()).tarball));

  test("the printed init writes files check accepts, and the printed check accepts the printed ones in their place, no server needed", async () => {
    const check = "SUPPORT_API_TOKEN=dev-token FLOW_TARGET=returns npx flowcheck check";
    await assertInitAsPrinted(initProject!, guide, check, (text) => text);
  });

  test("the guide's entries for a stateless endpoint and an event stream load", () =>
    assertEntriesLoad(guide, { ASSISTANT_API_TOKEN: "token" }));

  test("the printed command plays the printed scenario against the running server, every turn passing", async () => {
    await assertPassingRun(project!, guide, "SUPPORT_API_TOKEN=dev-token FLOW_TARGET=returns npx flowcheck test", [
      ["asks for the order number", "OrderStep"],
      ["takes the order number", "ReasonStep"],
      ["takes the reason", "ReasonStep"],
    ]);
    // The token is the run's: it never reaches what the run wrote.
    const results = readFileSync(join(project!.project, "test", ".tmp", "run-results.json"), "utf8");
    assert.doesNotMatch(results, /dev-token/);
  });

  test("the change the guide describes fails at its turn, with the file's line, as the guide prints", async () => {
    const file = join(project!.project, SCENARIO);
    const scenario = readFileSync(file, "utf8");
    const changed = scenario.replace('"order": "A-12345"', '"order": "A-12346"');
    assert.notEqual(changed, scenario);
    writeFileSync(file, changed);
    try {
      const run = await shellIn(
        project!,
        guide.command("SUPPORT_API_TOKEN=dev-token FLOW_TARGET=returns npx flowcheck test"),
      );
      const output = run.stdout + run.stderr;
      assert.equal(run.code, 1, output);
      const where = lineOf(guide.flowcheck, SCENARIO, '"label": "takes the order number"');
      assert.match(output, new RegExp(`${where.replaceAll(".", "\\.")}: turn 2 'takes the order number': `), output);
      assertPrinted(output, guide.output("fails at that turn:"));
      assert.deepEqual(
        resultsOf(project!).conversations[0]!.turns.map((turn) => turn.outcome),
        ["passed", "failed", "skipped"],
      );
    } finally {
      writeFileSync(file, scenario);
    }
  });
});

describe("docs/testing-ai-sdk.md", () => {
  const guide = guideOf("testing-ai-sdk.md", "booking-chat");
  const SCENARIO = "scenarios/booking/lisbon.scenario.json";
  const COMMAND = "FLOW_TARGET=booking npx flowcheck test";
  let project: PackedInstall | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;

  before(async () => {
    requireAiSdkFixture();
    project = await guideProject(guide);
    // The app's packages are the fixture project's, whose dependencies the printed package.json names.
    const app = join(project.project, guide.serverFolder);
    symlinkSync(join(AI_SDK_PROJECT, "node_modules"), join(app, "node_modules"));
    const port = String(await closedPort());
    server = await startPrinted(guide.command("PORT=").replace("3000", port), app);
    writeFiles(project.project, guide.flowcheck, (text) => text.replaceAll("http://127.0.0.1:3000", server!.url));
  });

  after(async () => {
    await server?.close();
    await project?.remove();
  });

  test("the guide prints the app, the config and the scenario, the app's files the fixture's own", () => {
    assert.deepEqual([...guide.server.keys()].sort(), ["booking-model.mjs", "package.json", "server.mjs"]);
    assert.deepEqual([...guide.flowcheck.keys()].sort(), ["flowcheck.config.json", SCENARIO]);
    for (const file of ["server.mjs", "booking-model.mjs"])
      assert.equal(guide.server.get(file), readFileSync(join(AI_SDK_PROJECT, file), "utf8"), file);
    const dependencies = (text: string) => (JSON.parse(text) as { dependencies?: unknown }).dependencies;
    assert.deepEqual(
      dependencies(guide.server.get("package.json")!),
      dependencies(readFileSync(join(AI_SDK_PROJECT, "package.json"), "utf8")),
    );
  });

  test("the printed install line installs the packed tarball as a dev dependency, and every printed $schema is in it", async () =>
    assertInstalled(project!, guide, (await packedTarball()).tarball));

  test("the guide's entry for a route that keeps the chat itself loads", () => assertEntriesLoad(guide, {}));

  test("the printed check accepts the printed scenario, sending nothing", async () => {
    const check = await shellIn(project!, guide.command("FLOW_TARGET=booking npx flowcheck check"));
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /^1 valid, 0 invalid$/m);
  });

  test("the printed command plays the printed scenario against the running app, every turn's tool calls passing", async () => {
    await assertPassingRun(project!, guide, COMMAND, [
      ["asks where", "search"],
      ["finds a room", "guest"],
      ["cannot book for nobody", "guest"],
      ["books for Ada", "done"],
    ]);
  });

  test("the change the guide describes fails at its turn, with the file's line, naming the call, as the guide prints", async () => {
    const file = join(project!.project, SCENARIO);
    const scenario = readFileSync(file, "utf8");
    const changed = scenario.replace('"nights": 2 }, "output"', '"nights": 3 }, "output"');
    assert.notEqual(changed, scenario);
    writeFileSync(file, changed);
    try {
      const run = await shellIn(project!, guide.command(COMMAND));
      const output = run.stdout + run.stderr;
      assert.equal(run.code, 1, output);
      const where = lineOf(guide.flowcheck, SCENARIO, '"label": "finds a room"');
      assert.match(output, new RegExp(`${where.replaceAll(".", "\\.")}: turn 2 'finds a room': `), output);
      assertPrinted(output, guide.output("fails at that turn, naming the call the route made:"));
      assert.deepEqual(
        resultsOf(project!).conversations[0]!.turns.map((turn) => turn.outcome),
        ["passed", "failed", "skipped", "skipped"],
      );
    } finally {
      writeFileSync(file, scenario);
    }
  });
});
