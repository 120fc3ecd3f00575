import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { scriptedText } from "../../src/testing/index.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { readChatCompletions } from "../../src/testing/seam/read-chat-completions.ts";
import { SEAM_KEY } from "../../src/testing/target/served-model.ts";
import tableAgent from "../fixtures/seam-scripts/table-agent.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { requireFixtureProject } from "../support/fixture-projects.mjs";
import { LANGGRAPH_FIXTURE, LANGGRAPH_PROJECT } from "../support/langgraph-dev-server.ts";
import { chatCompletion, startStandInProvider } from "../support/stand-in-provider.ts";
import { tempDir } from "../support/temp-path.ts";

// The LangGraph fixture's agent on ChatOpenAI (AGENT_MODEL=openai), served by `langgraphjs dev`,
// which flowcheck starts from the target's `start` and whose model it serves at the seam: the
// table agent's scripts answer it, or a provider standing in for OpenAI through a cassette.
const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");
const SCENARIOS = join(FIXTURES, "seam-scenarios", "langgraph");
const SCRIPTS = join(FIXTURES, "seam-scripts", "table-agent.ts");
const LOOPBACK_ONLY = join(FIXTURES, "mastra-project", "src", "loopback-only.ts");
const KEY = "sk-langgraph-seam-test-key";

// The dev server appends to its project's .gitignore and writes .langgraph_api/, so it runs in a
// copy of the project, its node_modules a link to the fixture's. LangSmith's and LangChain's
// settings are dropped (tracing, a LangSmith gateway the model would be sent to) and --studio-url
// keeps it from asking LangSmith for a host. The command runs this process's Node, not the
// shebang's first `node` on the PATH.
const COMMAND = [
  `unset $(env | sed -nE 's/^((LANGSMITH|LANGCHAIN)_[A-Za-z0-9_]*)=.*/\\1/p');`,
  `LANGSMITH_TRACING=false exec '${process.execPath}' node_modules/.bin/langgraphjs dev`,
  `--host 127.0.0.1 --port "$PORT" --no-browser --no-reload --studio-url "http://127.0.0.1:$PORT"`,
].join(" ");

describe("a LangGraph agent on ChatOpenAI, started by flowcheck, its model served at the seam", () => {
  let dir: { path: string; remove(): void };
  let app: string;

  before(async () => {
    requireFixtureProject(LANGGRAPH_FIXTURE);
    dir = await tempDir("run-model-seam-langgraph");
    app = join(realpathSync(dir.path), "agent-app");
    for (const part of ["src", "langgraph.json", "package.json"])
      cpSync(join(LANGGRAPH_PROJECT, part), join(app, part), { recursive: true });
    symlinkSync(join(LANGGRAPH_PROJECT, "node_modules"), join(app, "node_modules"));
    cpSync(SCENARIOS, join(dir.path, "chats"), { recursive: true });
    const tables = {
      kind: "langgraph",
      baseUrl: "http://127.0.0.1:{{port}}",
      start: {
        command: COMMAND,
        cwd: app,
        // Every process of the server refuses a connection to anywhere but this machine, and says so in its log.
        env: {
          PORT: "{{port}}",
          AGENT_MODEL: "openai",
          LANGGRAPH_CLI_NO_ANALYTICS: "1",
          BROWSER: "none",
          NODE_OPTIONS: `--import ${LOOPBACK_ONLY}`,
        },
        ready: "http://127.0.0.1:{{port}}/ok",
        timeoutMs: 60_000,
      },
      model: { scripts: SCRIPTS },
    };
    writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets: { tables } }));
  });

  after(() => dir?.remove());

  function flowcheckTest(paths: string[], env: Record<string, string> = {}): Promise<ChildRun> {
    return runFlowcheck(["test", ...paths, "--test-reporter=spec"], env, undefined, dir.path);
  }

  function resultsOf(): RunResults {
    return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
  }

  function appLog(): string {
    return readFileSync(join(dir.path, "test", ".tmp", "tables.log"), "utf8");
  }

  /** The tables scenario passed, every turn, with the tool calls the seam saw. */
  function assertTablesPassed(run: ChildRun): void {
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const [tables] = resultsOf().conversations;
    assert.equal(tables?.outcome, "passed", tables?.reason);
    assert.deepEqual(
      tables.turns.map((turn) => [turn.outcome, turn.toolCalls?.map((call) => [call.name, call.status])]),
      [
        ["passed", [["get_weather", "returned"]]],
        ["passed", [["book_table", "returned"]]],
        ["passed", [["book_table", "failed"]]],
        ["passed", [["book_table", "pending"]]],
      ],
    );
    // ChatOpenAI could not parse the arguments, so no tool ran: the call stays as the model sent it.
    assert.equal(tables.turns[3]!.toolCalls![0]!.args, '{"guests": two, "day": "friday"}');
  }

  test("a multi-turn scenario with expectToolCalls passes on the scripted model, with no key and no connection off this machine", async () => {
    const run = await flowcheckTest(["chats/tables.scenario.json"]);
    assertTablesPassed(run);
    const log = appLog();
    assert.match(log, /Registering graph with id 'agent'/);
    assert.match(log, /POST \/threads\/\S+\/runs\/wait/);
    assert.doesNotMatch(log, /outbound connection refused/);
  });

  test("the scenario records through the provider with the run's key, replays with the provider stopped, and an edited answer fails replay at its turn", async () => {
    const provider = await startStandInProvider();
    const environments: string[][] = [];
    provider.answer = (request) => {
      environments.push(...environmentsOf(app));
      const call = readChatCompletions(request.body);
      const context = { target: "tables", flow: "agent", model: call.model, api: "chat" as const };
      const reply = tableAgent({ ...call.request, context }) ?? scriptedText("the stand-in has no answer");
      return { status: 200, body: chatCompletion(reply) };
    };
    let record: ChildRun;
    try {
      record = await flowcheckTest(["chats/tables.scenario.json"], {
        FLOW_MODEL: "record",
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: provider.baseURL,
      });
    } finally {
      await provider.close();
    }
    assertTablesPassed(record);
    // Two calls a turn (the tools' call, the answer after them) but the last, whose call no tool runs.
    assert.equal(provider.requests.length, 7, record.stdout);
    assert.ok(provider.requests.every((request) => request.authorization === `Bearer ${KEY}`));
    assert.ok(!appLog().includes(KEY), "the app's log holds the run's key");
    // The app's processes are read from /proc, which only Linux has; elsewhere the log alone is checked.
    if (existsSync("/proc/self/environ")) {
      assert.ok(environments.length > 0, "no process of the app was found while it called its model");
      for (const environment of environments) {
        assert.ok(!environment.some((variable) => variable.includes(KEY)), "the app's environment holds the run's key");
        assert.ok(environment.includes(`OPENAI_API_KEY=${SEAM_KEY}`), environment.join("\n"));
        // Node reads NODE_OPTIONS in every process it starts, so the loopback guard ran in each.
        assert.ok(environment.includes(`NODE_OPTIONS=--import ${LOOPBACK_ONLY}`), environment.join("\n"));
      }
    }

    const replay = await flowcheckTest(["chats/tables.scenario.json"], { FLOW_MODEL: "replay" });
    assertTablesPassed(replay);
    assert.equal(provider.requests.length, 7, "replay asked the provider");

    const cassette = join(dir.path, "chats", "tables.cassette.json");
    const taped = readFileSync(cassette, "utf8");
    // The first booking of 2 taped is turn 2's answer, the tool call the model made.
    writeFileSync(cassette, taped.replace('\\"guests\\":2', '\\"guests\\":3'));
    const edited = await flowcheckTest(["chats/tables.scenario.json"], { FLOW_MODEL: "replay" });
    writeFileSync(cassette, taped);
    const output = edited.stdout + edited.stderr;
    assert.equal(edited.code, 1, output);
    const turns = resultsOf().conversations[0]!.turns;
    assert.deepEqual(
      turns.map((turn) => turn.outcome),
      ["passed", "failed", "skipped", "skipped"],
      output,
    );
    // The edited answer booked 3 guests: the call after it sends that back, which the recording never saw.
    assert.match(
      output,
      /chats\/tables\.scenario\.json:\d+: turn 2 'books a table for 2': .*Replay of chats\/tables\.cassette\.json: call 4 \(turn 2 'books a table for 2', target tables, Chat Completions\) differs from the recording in messages\[5\]\.toolCalls\[0\]\.arguments/,
    );
  });

  test("failModelCall and each modelFault kind change the agent's answer as the scenarios say: a rate limit retried, a cut answer, a cut call, an apology after an error or a timeout", async () => {
    const run = await flowcheckTest(["chats/faults"]);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const outcomes = new Map(resultsOf().conversations.map((conversation) => [conversation.name, conversation]));
    for (const name of ["rate-limit", "malformed-tool-call", "truncated", "error", "fail-model-call", "timeout"])
      assert.equal(outcomes.get(name)?.outcome, "passed", `${name}: ${outcomes.get(name)?.reason}\n${output}`);
    // The cut call reached the tool anyway: LangChain's parser closed the JSON, the seam kept what was sent.
    assert.equal(outcomes.get("malformed-tool-call")!.turns[0]!.toolCalls![0]!.args, '{"city":"Lisbon"');
    // The agent's client retried once, each retry faulted as the call was, then the agent apologised.
    assert.match(appLog(), /the model failed: 500 .*a fault the scenario asked for/);
    assert.match(appLog(), /the model failed: Connection error\./);
    assert.doesNotMatch(appLog(), /outbound connection refused/);
  });

  test("a prompt the scripts have no answer for fails its turn naming the prompt", async () => {
    const run = await flowcheckTest(["chats/failing/unmatched.scenario.json"]);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const turn = resultsOf().conversations[0]!.turns[1]!;
    assert.equal(turn.outcome, "failed", output);
    const atSeam = turn.checks.find((check) => check.name === "model calls");
    assert.match(
      atSeam?.message ?? "",
      /^model call 1 \(chat, model gpt-4o-mini\): script_unmatched: The scripted model of target tables has no answer .*Latest message: user "What is the weather in lisbon\?"\. Add a branch .*table-agent\.ts/,
    );
  });
});

/** The environment of every process running in `cwd` (the started app's shell is replaced by its node, which starts the API server). */
function environmentsOf(cwd: string): string[][] {
  const environments: string[][] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      environments.push(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0"));
    } catch {
      // the process ended meanwhile, or is not ours to read
    }
  }
  return environments;
}
