import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import type { ModelReply } from "../../src/engine/chat-model.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { AI_SDK_PROJECT, requireAiSdkFixture } from "../support/ai-sdk-server.ts";
import type { ChildRun } from "../support/child-run.ts";
import { printedFiles } from "../support/markdown.ts";
import { NPX_OFFLINE } from "../support/npx-flowcheck.ts";
import { packedInstall, packedTarball, type PackedInstall } from "../support/packed-install.ts";
import {
  responsesAnswer,
  startStandInProvider,
  type StandInProvider,
  type StandInRequest,
} from "../support/stand-in-provider.ts";

// The guide "Serving your app's model" (docs/model-seam.md) prints every file of a team's project:
// the app, its package.json, flowcheck's config, the scripts module and the scenario. This installs
// the packed package in a new project, runs the guide's install line, builds exactly the printed
// files (the app's packages the AI SDK fixture's, which its package.json names), and runs the
// guide's commands literally: scripted with no key, recorded against a provider standing in on
// loopback, then replayed with that provider stopped. Every process of the runs (npx, flowcheck,
// the app flowcheck starts) preloads the loopback guard through NODE_OPTIONS, which the printed
// command does not show and does not need, and no run may have had a connection refused.

const ROOT = resolve(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(join(ROOT, "docs", "model-seam.md"), "utf8");
const FILES = printedFiles(GUIDE);
const APP = "booking-desk";
const SCENARIO = "scenarios/booking/lisbon.scenario.json";
const CASSETTE = "scenarios/booking/lisbon.cassette.json";
const LOG = "test/.tmp/desk.log";
const KEY = "sk-stand-in-0123456789abcdef";
const LOOPBACK_ONLY = join(ROOT, "test", "fixtures", "mastra-project", "src", "loopback-only.ts");
const REFUSED = /outbound connection refused/;
const TURNS = ["asks where", "finds a room", "cannot book for nobody", "books for Ada"];

/** The `sh` line of the guide that starts with `prefix`: exactly one. */
function command(prefix: string): string {
  const lines = [...GUIDE.matchAll(/^```sh\n([\s\S]*?)\n```$/gm)].flatMap((block) => block[1]!.split("\n"));
  const found = lines.filter((line) => line.startsWith(prefix));
  assert.equal(found.length, 1, `docs/model-seam.md prints ${found.length} commands starting with ${prefix}`);
  return found[0]!;
}

/** The fenced `text` block after the line `marker`. */
function printedOutput(marker: string): string {
  const at = GUIDE.indexOf(`${marker}\n\n\`\`\`text\n`);
  assert.notEqual(at, -1, `docs/model-seam.md prints no text block after "${marker}"`);
  const start = GUIDE.indexOf("```text\n", at) + "```text\n".length;
  return GUIDE.slice(start, GUIDE.indexOf("\n```", start));
}

function resultsOf(project: PackedInstall): RunResults {
  return JSON.parse(readFileSync(join(project.project, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

/** The text of a Responses API body's input item: a user message's words, or a tool's output. */
function textOf(item: Record<string, unknown>): string {
  const content = item["content"] ?? item["output"];
  if (typeof content === "string") return content;
  return (content as { text?: string }[]).map((part) => part.text ?? "").join("");
}

/** A tool's output as the app sent it: an object of JSON text, or undefined (a tool that threw). */
function outputOf(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The provider's model as the stand-in plays it: the same answers the printed scripts give, read
 * from the Responses API body the app sent through the seam, each tool call with an id of its own.
 */
function deskModelReply(request: StandInRequest): ModelReply {
  const input = request.body["input"] as Record<string, unknown>[];
  const last = input.at(-1)!;
  const id = `call_stand_in_${input.length}`;
  const call = (name: string, args: object) => ({
    content: "",
    toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
  });
  if (last["type"] === "function_call_output") {
    const output = textOf(last);
    const value = outputOf(output);
    if (!value?.["hotel"]) return { content: `I could not do that: ${output}.`, toolCalls: [] };
    const content = value["reference"]
      ? `Booked ${value["hotel"]} for ${value["guest"]}: your reference is ${value["reference"]}.`
      : `${value["hotel"]} has a room for ${value["nights"]} nights at ${value["price"]} EUR. Who is the guest?`;
    return { content, toolCalls: [] };
  }
  const said = textOf(last);
  const room = /room in (\w+) for (\d+) nights?/i.exec(said);
  if (room) return call("findRoom", { city: room[1], nights: Number(room[2]) });
  const guest = /book it for (\w+)/i.exec(said)?.[1];
  if (guest) {
    const hotel = input
      .filter((item) => item["type"] === "function_call_output")
      .map((item) => outputOf(textOf(item))?.["hotel"])
      .findLast((found) => found !== undefined);
    return call("bookRoom", { hotel: hotel ?? "no hotel", guest: guest === "nobody" ? "" : guest });
  }
  return { content: "I can book you a hotel room. Which city, and for how many nights?", toolCalls: [] };
}

describe("docs/model-seam.md", () => {
  let project: PackedInstall | undefined;
  let provider: StandInProvider | undefined;

  /** The guide's command that starts with `prefix`, run literally at the project's root, the loopback guard preloaded. */
  async function runPrinted(prefix: string, env: Record<string, string> = {}): Promise<ChildRun & { output: string }> {
    const guard = { NODE_OPTIONS: `--import=${pathToFileURL(LOOPBACK_ONLY).href}` };
    const run = await project!.run("/bin/sh", ["-c", command(prefix)], { ...NPX_OFFLINE, ...guard, ...env });
    const output = run.stdout + run.stderr;
    assert.doesNotMatch(output, REFUSED, output);
    assert.doesNotMatch(readFileSync(join(project!.project, LOG), "utf8"), REFUSED);
    return { ...run, output };
  }

  /**
   * The run exited 0, its one conversation and each of its turns passed, and it printed the guide's
   * lines: all of the scripted run's, the tokens aside in a run the provider's usage counts in.
   */
  function assertPassed(run: ChildRun & { output: string }, tokens: "none" | "counted" = "none") {
    assert.equal(run.code, 0, run.output);
    const [conversation, ...others] = resultsOf(project!).conversations;
    assert.equal(others.length, 0, run.output);
    assert.equal(conversation?.outcome, "passed", run.output);
    assert.deepEqual(
      conversation!.turns.map((turn) => [turn.label, turn.outcome]),
      TURNS.map((label) => [label, "passed"]),
    );
    for (const printed of printedOutput("A passing run ends with:")
      .split("\n")
      .filter((text) => text !== "…")) {
      const line = tokens === "none" ? printed.trim() : printed.trim().replace(/; tokens 0$/, "; tokens ");
      assert.ok(run.output.includes(line), `the run did not print the guide's line:\n${line}\n---\n${run.output}`);
    }
  }

  before(async () => {
    requireAiSdkFixture();
    project = await packedInstall();
    const line = command("npm i -D ");
    const tarball = resolve(project.project, line.slice("npm i -D ".length));
    mkdirSync(dirname(tarball), { recursive: true });
    copyFileSync((await packedTarball()).tarball, tarball);
    const installed = await project.run("/bin/sh", ["-c", line], { ...NPX_OFFLINE });
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    for (const [path, text] of FILES) {
      mkdirSync(dirname(join(project.project, path)), { recursive: true });
      writeFileSync(join(project.project, path), text);
    }
    // The app's packages are the fixture project's, whose dependencies the printed package.json names.
    symlinkSync(join(AI_SDK_PROJECT, "node_modules"), join(project.project, APP, "node_modules"));
    provider = await startStandInProvider();
    provider.answer = (request) => ({ status: 200, body: responsesAnswer(deskModelReply(request)) });
  });

  after(async () => {
    await provider?.close();
    await project?.remove();
  });

  test("the guide prints the app, its package.json, the config, the scripts module and the scenario", () => {
    assert.deepEqual(
      [...FILES.keys()].sort(),
      [`${APP}/package.json`, `${APP}/server.mjs`, "flowcheck.config.json", SCENARIO, "test/desk-model.ts"].sort(),
    );
    const dependencies = (text: string) => (JSON.parse(text) as { dependencies?: unknown }).dependencies;
    assert.deepEqual(
      dependencies(FILES.get(`${APP}/package.json`)!),
      dependencies(readFileSync(join(AI_SDK_PROJECT, "package.json"), "utf8")),
    );
    assert.equal(basename(command("npm i -D ")), "flowcheck-0.1.0.tgz");
    assert.ok(GUIDE.includes("`npm i -D flowcheck`"), "the guide names the published package's install line");
  });

  test("the printed command plays the scenario against the started app on the scripted model, with no key and nothing sent off the machine", async () => {
    assertPassed(await runPrinted("npx flowcheck test"));
    assert.ok(readFileSync(join(project!.project, LOG), "utf8").includes("listening on http://127.0.0.1:"));
    assert.equal(existsSync(join(project!.project, CASSETTE)), false);
  });

  test("the printed record command sends every model call to the provider with the key, which neither the app's log nor the cassette holds, and writes the cassette", async () => {
    const run = await runPrinted("FLOW_MODEL=record ", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider!.baseURL });
    assertPassed(run, "counted");
    // Two calls for each turn that calls a tool (the call, then words about its output), one for the first.
    assert.equal(provider!.requests.length, 7, JSON.stringify(provider!.requests.map((request) => request.body)));
    for (const request of provider!.requests) {
      assert.equal(request.path, "/v1/responses");
      assert.equal(request.authorization, `Bearer ${KEY}`);
    }
    assert.ok(existsSync(join(project!.project, CASSETTE)), run.output);
    assert.ok(!readFileSync(join(project!.project, LOG), "utf8").includes(KEY));
    assert.ok(!readFileSync(join(project!.project, CASSETTE), "utf8").includes(KEY));
  });

  test("the printed replay command answers from the cassette with the provider stopped and no key, sending it nothing", async () => {
    assert.ok(existsSync(join(project!.project, CASSETTE)), "the record test wrote no cassette");
    const recorded = provider!.requests.length;
    await provider!.close();
    const run = await runPrinted("FLOW_MODEL=replay ", { OPENAI_BASE_URL: provider!.baseURL });
    assertPassed(run);
    assert.equal(provider!.requests.length, recorded);
  });

  test("the guide's rate-limited turn passes on the scripted model, the app retrying the 429", async () => {
    const fault = /^```json\n(\{\n {2}"label"[\s\S]*?)\n```$/m.exec(GUIDE.slice(GUIDE.indexOf("## Model faults")));
    assert.ok(fault, "the guide prints no fault turn");
    const scenario = JSON.parse(FILES.get(SCENARIO)!) as { turns: unknown[] };
    const file = join(project!.project, "scenarios", "booking", "rate-limited.scenario.json");
    writeFileSync(file, JSON.stringify({ ...scenario, turns: [JSON.parse(fault[1]!)] }));
    try {
      const run = await project!.run("npx", ["flowcheck", "test", file], { ...NPX_OFFLINE });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const [conversation] = resultsOf(project!).conversations;
      assert.deepEqual(
        conversation?.turns.map((turn) => turn.outcome),
        ["passed"],
      );
      // The app waited out the 429's Retry-After (a second) before the seam served its retry.
      assert.ok((conversation?.millis ?? 0) >= 1000, JSON.stringify(conversation));
    } finally {
      rmSync(file);
    }
  });
});
