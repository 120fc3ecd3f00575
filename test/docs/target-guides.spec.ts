import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { loadTargetConfig } from "../../src/testing/target/target-config.ts";
import type { ChildRun } from "../support/child-run.ts";
import {
  langgraphFixtureMissing,
  startLanggraphDevServer,
  type LanggraphDevServer,
} from "../support/langgraph-dev-server.ts";
import { closedPort } from "../support/loopback-server.ts";
import { printedFiles } from "../support/markdown.ts";
import { repositoryCopy, type RepositoryCopy } from "../support/repository-copy.ts";
import { tempDir } from "../support/temp-path.ts";

// The guides "Testing a LangGraph graph" (docs/testing-langgraph.md) and "Testing your own HTTP API"
// (docs/testing-http-api.md) print every file a team writes. This builds exactly those files (the
// server's in a folder of its own, flowcheck's in a copy of the repository), serves the server as
// the guide says, and runs the guide's command literally, with only the port changed; then it makes
// the change to the scenario the guide describes and checks the failure the guide prints.

const ROOT = resolve(import.meta.dirname, "..", "..");

interface Guide {
  text: string;
  /** The printed files under the server's folder (its prefix removed), and the rest. */
  server: Map<string, string>;
  checkout: Map<string, string>;
  /** The `sh` lines that start with `prefix`, as printed. */
  command(prefix: string): string;
  /** The fenced `text` block that follows the line `marker`. */
  output(marker: string): string;
}

function guideOf(file: string, serverFolder: string): Guide {
  const text = readFileSync(join(ROOT, "docs", file), "utf8");
  const server = new Map<string, string>();
  const checkout = new Map<string, string>();
  for (const [path, content] of printedFiles(text)) {
    if (path.startsWith(`${serverFolder}/`)) server.set(path.slice(serverFolder.length + 1), content);
    else checkout.set(path, content);
  }
  return {
    text,
    server,
    checkout,
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

/** The printed command, run by a shell in the copy as a user types it. */
function runPrinted(copy: RepositoryCopy, line: string): Promise<ChildRun> {
  return copy.run("/bin/sh", ["-c", line]);
}

function resultsOf(copy: RepositoryCopy): RunResults {
  return JSON.parse(readFileSync(join(copy.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
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

/** Every `json` block of a section whose first key is "kind": a target entry, loaded as the config loader does. */
/**
 * Runs the guide's command that starts with `prefix`, literally, in `copy`: it exits 0, its one
 * conversation passed with each turn stored on its step, and it prints the guide's passing output.
 * Resolves to what it printed.
 */
async function assertPassingRun(
  copy: RepositoryCopy,
  guide: Guide,
  prefix: string,
  steps: [label: string, step: string][],
): Promise<string> {
  const run = await runPrinted(copy, guide.command(prefix));
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  const [conversation, ...others] = resultsOf(copy).conversations;
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

describe("docs/testing-langgraph.md", () => {
  const guide = guideOf("testing-langgraph.md", "booking-graph");
  const live = { skip: langgraphFixtureMissing() };
  const SCENARIO = "scenarios/booking/table-for-four.scenario.json";
  let server: LanggraphDevServer | undefined;
  let project: { path: string; remove(): void } | undefined;
  let copy: RepositoryCopy | undefined;

  before(async () => {
    if (live.skip) return;
    project = await tempDir("target-guide-langgraph-project");
    writeFiles(project.path, guide.server);
    server = await startLanggraphDevServer(project.path);
    copy = await repositoryCopy("target-guide-langgraph");
    writeFiles(copy.path, guide.checkout, (text) => text.replaceAll("http://127.0.0.1:2024", server!.baseUrl));
  });

  after(async () => {
    copy?.remove();
    await server?.close();
    project?.remove();
  });

  test("the guide prints the graph project, the config and the scenario", () => {
    assert.deepEqual([...guide.server.keys()].sort(), ["langgraph.json", "package.json", "src/booking.ts"]);
    assert.deepEqual([...guide.checkout.keys()].sort(), ["flowcheck.config.json", SCENARIO]);
    // The dev server command the guide prints: the flags the harness serves the graph with.
    const serve = guide.command("LANGGRAPH_CLI_NO_ANALYTICS=1 ");
    for (const flag of ["dev", "--port 2024", "--host 127.0.0.1", "--no-browser"])
      assert.ok(serve.includes(flag), serve);
  });

  test("the guide's graph entry for a step kept in a state key loads", () => assertEntriesLoad(guide, {}));

  test(
    "the printed command plays the printed scenario against the served graph, every turn passing",
    live,
    async () => {
      const output = await assertPassingRun(copy!, guide, "FLOW_TARGET=", [
        ["asks the party size", "party_size"],
        ["refuses twelve guests", "party_size"],
        ["takes four guests", "booking_day"],
        ["books Friday", "confirm_booking"],
      ]);
      // The guide quotes the graph's summary line in its text, where it wraps: the checklist it can show.
      const summary = /^ {2}(booking +3\/3 steps · 0\/0 tools · checklist \S+ ✓, \d+ n\/a)$/m.exec(output)?.[1];
      assert.ok(summary, output);
      assert.ok(guide.text.replace(/\s+/g, " ").includes(`\`${summary.replace(/\s+/g, " ")}\``), summary);
    },
  );

  test(
    "the change the guide describes fails at its turn, with the file's line, as the guide prints",
    live,
    async () => {
      const scenario = guide.checkout.get(SCENARIO)!;
      assert.ok(scenario.includes('"expectState": { "guests": 4 }'));
      writeFileSync(
        join(copy!.path, SCENARIO),
        scenario.replace('"expectState": { "guests": 4 }', '"expectState": { "guests": 6 }'),
      );
      try {
        const run = await runPrinted(copy!, guide.command("FLOW_TARGET="));
        const output = run.stdout + run.stderr;
        assert.equal(run.code, 1, output);
        const where = lineOf(guide.checkout, SCENARIO, '"label": "takes four guests"');
        assert.match(output, new RegExp(`${where.replaceAll(".", "\\.")}: turn 3 'takes four guests': `), output);
        assertPrinted(output, guide.output("It fails at that turn:"));
        assert.deepEqual(
          resultsOf(copy!).conversations[0]!.turns.map((turn) => turn.outcome),
          ["passed", "passed", "failed", "skipped"],
        );
      } finally {
        writeFileSync(join(copy!.path, SCENARIO), scenario);
      }
    },
  );
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
  let project: { path: string; remove(): void } | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;
  let copy: RepositoryCopy | undefined;

  before(async () => {
    project = await tempDir("target-guide-http-project");
    writeFiles(project.path, guide.server);
    const port = String(await closedPort());
    server = await startPrinted(guide.command("SUPPORT_API_TOKEN=dev-token PORT=").replace("3100", port), project.path);
    copy = await repositoryCopy("target-guide-http");
    writeFiles(copy.path, guide.checkout, (text) => text.replaceAll("http://127.0.0.1:3100", server!.url));
  });

  after(async () => {
    copy?.remove();
    await server?.close();
    project?.remove();
  });

  test("the guide prints the server, the config and the scenario", () => {
    assert.deepEqual([...guide.server.keys()], ["server.mjs"]);
    assert.deepEqual([...guide.checkout.keys()].sort(), ["flowcheck.config.json", SCENARIO]);
  });

  test("the guide's entries for a stateless endpoint and an event stream load", () =>
    assertEntriesLoad(guide, { ASSISTANT_API_TOKEN: "token" }));

  test("the printed command plays the printed scenario against the running server, every turn passing", async () => {
    await assertPassingRun(copy!, guide, "SUPPORT_API_TOKEN=dev-token FLOW_TARGET=", [
      ["asks for the order number", "OrderStep"],
      ["takes the order number", "ReasonStep"],
      ["takes the reason", "ReasonStep"],
    ]);
    // The token is the run's: it never reaches what the run wrote.
    assert.doesNotMatch(readFileSync(join(copy!.path, "test", ".tmp", "run-results.json"), "utf8"), /dev-token/);
  });

  test("the change the guide describes fails at its turn, with the file's line, as the guide prints", async () => {
    const scenario = guide.checkout.get(SCENARIO)!;
    const changed = scenario.replace('"order": "A-12345"', '"order": "A-12346"');
    assert.notEqual(changed, scenario);
    writeFileSync(join(copy!.path, SCENARIO), changed);
    try {
      const run = await runPrinted(copy!, guide.command("SUPPORT_API_TOKEN=dev-token FLOW_TARGET="));
      const output = run.stdout + run.stderr;
      assert.equal(run.code, 1, output);
      const where = lineOf(guide.checkout, SCENARIO, '"label": "takes the order number"');
      assert.match(output, new RegExp(`${where.replaceAll(".", "\\.")}: turn 2 'takes the order number': `), output);
      assertPrinted(output, guide.output("fails at that turn:"));
      assert.deepEqual(
        resultsOf(copy!).conversations[0]!.turns.map((turn) => turn.outcome),
        ["passed", "failed", "skipped"],
      );
    } finally {
      writeFileSync(join(copy!.path, SCENARIO), scenario);
    }
  });
});
