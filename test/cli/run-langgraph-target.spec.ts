import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { startLanggraphDevServer, type LanggraphDevServer } from "../support/langgraph-dev-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A project with no flow spec at all: flowcheck.config.json names the fixture's LangGraph dev server
// as the target "graphs", and flowcheck test plays the scenario files it is given against it.
const SCENARIOS = resolve(import.meta.dirname, "..", "fixtures", "langgraph-scenarios");

describe("flowcheck test against a LangGraph target", () => {
  let server: LanggraphDevServer;
  let dir: { path: string; remove(): void };

  before(async () => {
    server = await startLanggraphDevServer();
    dir = await tempDir("run-langgraph-target");
    cpSync(SCENARIOS, join(dir.path, "conversations"), { recursive: true });
    const chat = { step: "/step", completed: "/done", steps: ["NameStep", "EmailStep", "DoneStep"] };
    const targets = { graphs: { kind: "langgraph", baseUrl: server.baseUrl, graphs: { chat } } };
    writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  });

  after(async () => {
    dir?.remove();
    await server?.close();
  });

  /** flowcheck test in the project's folder, FLOW_TARGET naming the target for the files that name none. */
  function runSpecs(...args: string[]): Promise<ChildRun> {
    return runFlowcheck(["test", ...args, "--test-reporter=spec"], { FLOW_TARGET: "graphs" }, undefined, dir.path);
  }

  test("scenarios:check checks the scenarios of a graph against the nodes the server lists, with did you mean", async () => {
    const check = await runFlowcheck(["check", "conversations"], { FLOW_TARGET: "graphs" }, undefined, dir.path);
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(check.stdout, /^11 valid, 1 invalid$/m);
    assert.match(
      check.stdout,
      /^ok {4}conversations\/passing\/intake\.scenario\.json \(intake, \d+ turns; target graphs\)$/m,
    );
    assert.match(
      check.stdout,
      /^ok {4}conversations\/passing\/chat\.scenario\.json \(chat, \d+ turns; target graphs\)$/m,
    );
    assert.match(
      check.stdout,
      /^fail {2}.*misspelt-node\.scenario\.json[\s\S]*?"name_stp" is not a step of graph intake of target graphs .*did you mean name_step\?/m,
    );
  });

  test("shards split the scenarios no spec describes between them, each played once", async () => {
    const played: string[] = [];
    for (const shard of ["1/2", "2/2"]) {
      const run = await runSpecs("conversations/passing", `--test-shard=${shard}`);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      played.push(...resultsOf().conversations.map((conversation) => conversation.name));
    }
    assert.deepEqual(played, ["chat", "intake"]);
  });

  function resultsOf(): RunResults {
    return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
  }

  /** `conversations/<file>:<line>` of the turn labelled `label`, as a failure names it. */
  function lineOf(file: string, label: string): string {
    const lines = readFileSync(join(SCENARIOS, file), "utf8").split("\n");
    const line = lines.findIndex((text) => text.includes(`"label": "${label}"`)) + 1;
    assert.ok(line > 0, `${file} has no turn labelled ${label}`);
    return `conversations/${file}:${line}`;
  }

  test("scenarios of two graphs, with no spec, pass against the target FLOW_TARGET or their own target names, every turn in the results", async () => {
    const run = await runSpecs("conversations/passing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const results = resultsOf();
    const byName = new Map(results.conversations.map((conversation) => [conversation.name, conversation]));
    assert.deepEqual([...byName.keys()].sort(), ["chat", "intake"], output);
    for (const [name, turns] of [
      ["intake", 5],
      ["chat", 3],
    ] as const) {
      const conversation = byName.get(name)!;
      assert.equal(conversation.outcome, "passed", conversation.reason);
      assert.equal(conversation.target?.baseUrl, server.baseUrl);
      assert.equal(conversation.turns.length, turns);
      assert.ok(conversation.turns.every((turn) => turn.outcome === "passed"));
    }
    // The chat graph's values are flat: its finalState names their keys, not steps.
    const final = byName.get("chat")!.final?.checks.filter((check) => check.name.startsWith("finalState."));
    assert.deepEqual(
      final?.map((check) => [check.name, check.outcome]),
      [
        ["finalState.name", "passed"],
        ["finalState.email", "passed"],
        ["finalState.done", "passed"],
      ],
    );
    // The refusal kept the thread on name_step, and the thread's count of turns is not faked.
    const refusal = byName.get("intake")!.turns[1]!;
    assert.equal(refusal.stored?.step, "name_step");
    assert.equal(refusal.checks.find((check) => check.name === "turns")?.outcome, "skipped");
    // The last turn resumed the interrupt with an object, kept as it is in the results and sent as it is.
    const confirms = byName.get("intake")!.turns[4]!;
    assert.deepEqual(confirms.input, { confirm: true });
    assert.deepEqual((confirms.request?.body as { command?: unknown }).command, { resume: { confirm: true } });
    const report = readFileSync(join(dir.path, "test", ".tmp", "report.html"), "utf8");
    assert.match(report, /<div class="bubble user"><pre class="text">\{&quot;confirm&quot;:true\}<\/pre><\/div>/);
    const transcript = await runFlowcheck(
      ["transcript", join("test", ".tmp", "run-results.json"), "intake"],
      {},
      undefined,
      dir.path,
    );
    assert.equal(transcript.code, 0, transcript.stderr);
    assert.match(transcript.stdout, /^ {3}user {7}\{"confirm":true\}$/m);
    // results:merge reads the value back as it is.
    const merged = join("test", ".tmp", "merged-run-results.json");
    const merge = await runFlowcheck(
      ["merge", join("test", ".tmp", "run-results.json"), "--out", merged],
      {},
      undefined,
      dir.path,
    );
    assert.equal(merge.code, 0, merge.stdout + merge.stderr);
    const remerged = JSON.parse(readFileSync(join(dir.path, merged), "utf8")) as RunResults;
    const intake = remerged.conversations.find((conversation) => conversation.name === "intake");
    assert.deepEqual(intake?.turns[4]?.input, { confirm: true });
    // A restart is not the tester's to make on a LangGraph server: skipped, naming the target.
    const restart = byName.get("intake")!.turns[2]!.checks.find((check) => check.name === "restartBefore");
    assert.equal(restart?.outcome, "skipped");
    assert.match(restart?.message ?? "", /^the target runs elsewhere \(target graphs \(langgraph\)\)/);
    assert.match(run.stdout, /^2 conversations: 2 passed, 0 failed, 0 skipped; turns 8 passed, 0 failed, 0 skipped/m);
    // Coverage counts the steps each graph lists (its nodes, or its entry's steps) that the turns were stored on.
    assert.deepEqual(results.coverage?.["intake"]?.steps, {
      name_step: true,
      age_step: true,
      confirm_step: true,
      summary_step: true,
    });
    assert.deepEqual(results.coverage?.["chat"]?.steps, { NameStep: true, EmailStep: true, DoneStep: true });
    // The checklist judges what a LangGraph target shows (every turn's assertions, the completed run,
    // the steps reached) and claims no proof it cannot give: those points say why not.
    assert.match(run.stdout, /^ {2}intake +4\/4 steps · 0\/0 tools · checklist 2 ✓, 1 ✗ to add, 12 n\/a$/m);
    const checklist = results.checklist?.find((flow) => flow.flow === "intake");
    const status = new Map(checklist?.points.map((point) => [point.id, point.status]));
    assert.equal(checklist?.judged, true);
    assert.equal(status.get("1"), "not applicable");
    assert.equal(status.get("tools"), "not applicable");
    assert.deepEqual(
      checklist?.points.filter((point) => point.status === "proved").map((point) => point.id),
      ["7", "steps"],
    );
    const everyTurn = checklist?.points.find((point) => point.id === "3");
    assert.equal(everyTurn?.status, "missing");
    assert.match(everyTurn?.detail ?? "", /^intake turn 3 'takes the name': add a check of the response/);
  });

  test("a wrong step, a wrong state value, a refusal the graph does not make and a value sent as a message each fail at their turn, with the file's line; a misspelt node is refused before any turn", async () => {
    const run = await runSpecs("conversations/failing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const failures = [
      ["failing/wrong-step.scenario.json", "takes the name", /expected active step confirm_step, stored age_step/],
      [
        "failing/wrong-state.scenario.json",
        "takes the name",
        /state\.name: expected "Grace Hopper", found "Ada Lovelace"/,
      ],
      [
        "failing/unmade-refusal.scenario.json",
        "refuses a full name",
        /expected active step name_step, stored age_step .*the response lacks "first and last name"/,
      ],
      [
        "failing/value-as-message.scenario.json",
        "sends a value as a message",
        /the input \{"name":"Ada Lovelace"\} is an object, but thread \S+ of graph chat waits on no interrupt, so the turn is a user message, which must be text; nothing was sent\./,
      ],
    ] as const;
    const results = resultsOf();
    for (const [file, label, why] of failures) {
      assert.match(
        output,
        new RegExp(`${lineOf(file, label).replaceAll(".", "\\.")}: turn \\d+ '${label}': ${why.source}`),
      );
      const conversation = results.conversations.find((c) => c.file === `conversations/${file}`);
      assert.equal(conversation?.outcome, "failed", output);
      const failed = conversation!.turns.filter((turn) => turn.outcome === "failed");
      assert.deepEqual(
        failed.map((turn) => turn.label),
        [label],
      );
    }
    assert.match(
      output,
      /"name_stp" is not a step of graph intake of target graphs \(http:\/\/127\.0\.0\.1:\d+\); did you mean name_step\?/,
    );
    // A flat finalState's wrong value fails the final state, naming the key, every turn passed.
    const finalFailure = results.conversations.find(
      (c) => c.file === "conversations/failing/wrong-final-state.scenario.json",
    );
    assert.equal(finalFailure?.outcome, "failed", output);
    assert.ok(finalFailure!.turns.every((turn) => turn.outcome === "passed"));
    assert.equal(
      finalFailure!.final?.failure,
      'final state: finalState.email: state.email: expected "grace@example.com", found "ada@example.com"',
    );
    assert.deepEqual(
      finalFailure!.final?.checks.filter((check) => check.name.startsWith("finalState.")).map((c) => c.outcome),
      ["passed", "failed"],
    );
  });

  test("an agent graph's tool calls are read from its thread every turn: args and output pass, a call that failed, did not parse or waits at an interrupt included", async () => {
    const run = await runSpecs("conversations/tools/passing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const byName = new Map(resultsOf().conversations.map((conversation) => [conversation.name, conversation]));
    const callsOf = (name: string) => {
      assert.equal(byName.get(name)?.outcome, "passed", output);
      return byName.get(name)!.turns.map((turn) => {
        const check = turn.checks.find((c) => c.name === "expectToolCalls");
        return check && [check.outcome, check.actual];
      });
    };
    const calls = callsOf("agent");
    assert.deepEqual(calls.slice(0, 2), [
      [
        "passed",
        [
          {
            name: "get_weather",
            args: { city: "Lisbon" },
            output: "sunny, 24 °C in Lisbon",
            status: "returned",
            id: "call_1_0",
          },
        ],
      ],
      [
        "passed",
        [
          {
            name: "book_table",
            args: { guests: 12, day: "friday" },
            output: { error: "Error: we seat at most 8 guests, not 12\n Please fix your mistakes." },
            status: "failed",
            id: "call_5_0",
          },
        ],
      ],
    ]);
    assert.deepEqual(
      (calls[2]![1] as { name: string; status: string }[]).map((call) => [call.name, call.status]),
      [
        ["get_weather", "returned"],
        ["book_table", "returned"],
      ],
    );
    assert.equal(calls[3]![0], "passed");
    // A turn that asserts no calls has no check of them.
    assert.equal(calls[4], undefined);
    // A run stopped at an interrupt before its tools: the call is pending, then the resumed run
    // that ran it reports it with its output (the user's message is still the last one).
    const approval = callsOf("approval").map((turn) =>
      (turn![1] as { name: string; status: string; output?: unknown }[]).map((call) => [call.status, call.output]),
    );
    assert.deepEqual(approval, [
      [["pending", undefined]],
      [["returned", { booking: "T-monday-2", guests: 2, day: "monday" }]],
      [["pending", undefined]],
      [["failed", { error: "the user declined the call" }]],
    ]);
  });

  test("a wrong tool argument and a tool the turn did not call each fail at their turn's line, naming the calls the turn made", async () => {
    const run = await runSpecs("conversations/tools/failing");
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const failures = [
      [
        "tools/failing/wrong-argument.scenario.json",
        "looks up the weather",
        /turn 1: expectToolCalls\[0\] \{"name":"get_weather","args":\{"city":"Porto"\}\} was not called: get_weather \(call 1 of the turn\) differs: args\.city: expected "Porto", found "Lisbon"; the turn called get_weather\(\{"city":"Lisbon"\}\) → "sunny, 24 °C in Lisbon"/,
      ],
      [
        "tools/failing/uncalled-tool.scenario.json",
        "books without checking",
        /turn 2: expectToolCalls\[0\] \{"name":"get_weather"\} was not called: the turn did not call get_weather; the turn called book_table\(\{"guests":2,"day":"monday"\}\) → \{"booking":"T-monday-2","guests":2,"day":"monday"\}/,
      ],
    ] as const;
    for (const [file, label, why] of failures) {
      assert.match(
        output,
        new RegExp(`${lineOf(file, label).replaceAll(".", "\\.")}: turn \\d+ '${label}': .*${why.source}`),
      );
      const conversation = resultsOf().conversations.find((c) => c.file === `conversations/${file}`);
      assert.deepEqual(
        conversation?.turns.filter((turn) => turn.outcome === "failed").map((turn) => turn.label),
        [label],
        output,
      );
    }
  });
});
