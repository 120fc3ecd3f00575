import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import type { JudgeRequest } from "../../../src/testing/judge/judge-client.ts";
import type { JudgeMaterial } from "../../../src/testing/judge/judge-prompt.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import {
  startFakeOpenAI,
  PASSING_VERDICT,
  type CompletionRequest,
  type FakeOpenAI,
} from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import { finalLocation, turnLocation } from "../../support/turn-location.ts";
import {
  BASIC_FLOW_FILE,
  JUDGE_TESTS,
  judgeSummary,
  readBasicFlow,
  result,
  ROOT,
  runSpec,
  tapResults,
  TURN_TESTS,
  writeScenario,
  writeSpec,
  type ChildRun,
} from "../../support/child-run.ts";

// FLOW_MODEL=record tapes a scenario's model and judge calls next to it; FLOW_MODEL=replay answers
// from the tape with no key and no request, checks each request against it, and fails on drift or
// on calls left over. Under CI a cassette is never recorded and never missing.

/** `run` against a fake provider of its own, closed after it, with the number of requests it got: the run's alone. */
async function withFake(run: (fake: FakeOpenAI) => Promise<ChildRun>): Promise<ChildRun & { requests: number }> {
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  try {
    return { ...(await run(fake)), requests: fake.requests.length };
  } finally {
    await fake.close();
  }
}

const PASSED = { ok: true, directive: undefined, error: undefined };
/** Where a cassette of the fixture scenario itself would go: the recording is of a copy, elsewhere. */
const FIXTURE_CASSETTE = BASIC_FLOW_FILE.replace(/\.scenario\.json$/, ".cassette.json");

/** Every call of BasicFlow's scenario, as [position, turn, label, kind, where] (`Flow/Step`). */
const CALLS = [
  [1, 1, "name rejected", "model", "BasicFlow/NameStep"],
  [2, 1, "name rejected", "model", "BasicFlow/NameStep"],
  [3, 1, "name rejected", "judge", undefined],
  [4, 2, "name accepted", "model", "BasicFlow/NameStep"],
  [5, 2, "name accepted", "model", "BasicFlow/WeatherStep"],
  [6, 2, "name accepted", "judge", undefined],
  [7, 3, "two cities", "model", "BasicFlow/WeatherStep"],
  [8, 3, "two cities", "model", "BasicFlow/AddressStep"],
  [9, 3, "two cities", "judge", undefined],
  [10, 4, "bad zip stays", "model", "BasicFlow/AddressStep"],
  [11, 4, "bad zip stays", "model", "AddressCheck/NormalizeAddressStep"],
  [12, 4, "bad zip stays", "model", "AddressCheck/NormalizeAddressStep"],
  [13, 4, "bad zip stays", "model", "BasicFlow/AddressStep"],
  [14, 4, "bad zip stays", "judge", undefined],
  [15, 5, "address completes the flow", "model", "BasicFlow/AddressStep"],
  [16, 5, "address completes the flow", "model", "AddressCheck/NormalizeAddressStep"],
  [17, 5, "address completes the flow", "model", "AddressCheck/NormalizeAddressStep"],
  [18, 5, "address completes the flow", "model", "BasicFlow/AddressStep"],
  [19, 5, "address completes the flow", "judge", undefined],
];

// The judge's rules and user message as cassettes recorded before the judge sent the conversation,
// input, answer and expectation as one JSON object hold them.
const RULES_BEFORE_JSON_FIELDS = `You grade one answer of a conversational assistant against an expectation a test author wrote.
Judge only what the expectation asks about. Ignore wording, tone and formatting unless the expectation names them.
Use the conversation so far only to understand the answer; grade the latest answer alone.
Reply with one JSON object and nothing else:
{"pass": true|false, "score": 0..1, "reason": "…", "missing": ["…"], "contradictions": ["…"]}
- score: how fully the answer meets the expectation, from 0 (not at all) to 1 (fully).
- pass: true only when the answer meets the expectation as a whole.
- missing: each thing the expectation asks for that the answer does not do; [] when none.
- contradictions: each thing the answer says or does against the expectation or the conversation; [] when none.
- reason: one or two sentences the test author can act on.`;

function beforeJsonFields(request: JudgeRequest): JudgeRequest {
  const fields = JSON.parse(request.user) as JudgeMaterial;
  const flowRules = request.system.slice(
    request.system.indexOf("\nRules for this flow, which override the ones above:\n"),
  );
  const earlier = fields.conversation.length
    ? fields.conversation.map((turn) => `User: ${turn.user}\nAssistant: ${turn.assistant}`).join("\n")
    : "(none: this is the first turn)";
  const user = [
    "Conversation so far:",
    earlier,
    "",
    "Latest user message:",
    fields.latestUserMessage,
    "",
    "Answer to grade:",
    fields.answer,
    "",
    "Expectation:",
    fields.expectation,
  ];
  return { model: request.model, system: `${RULES_BEFORE_JSON_FIELDS}${flowRules}`, user: user.join("\n") };
}

const REPLAY_SUMMARY = "judge: 0 calls made, 0 cached, 5 replayed; 600 tokens (500 prompt, 100 completion)";

// Each test has its own folder, fake provider and child run, and reads the recording alone, so they run side by side.
/** The BasicFlow spec run with CI=1 and FLOW_MODEL=`mode` against the fake provider: it fails at its first test, which it returns. */
async function underCi(dir: string, mode: "record" | "replay", signal: AbortSignal) {
  const scenario = writeScenario(dir, "basic-flow", readBasicFlow());
  const run = await withFake((fake) =>
    runSpec(
      writeSpec(dir, scenario, join(dir, "artifacts")),
      { CI: "1", FLOW_MODEL: mode, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL },
      signal,
    ),
  );
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const suite = result(
    tapResults(run.stdout),
    "the target starts, serves the flow, and the persisted contract can be checked",
  );
  assert.equal(suite.ok, false);
  return { scenario, run, suite };
}

describe("cassettes of BasicFlow", { concurrency: 2 }, () => {
  describe("a cassette of BasicFlow, recorded against a local OpenAI-compatible server", () => {
    let fake: FakeOpenAI;
    let dir: { path: string; remove: () => void };
    let scenarioFile: string;
    let cassetteFile: string;
    let recording: ChildRun;
    let wire: CompletionRequest[];

    before(async () => {
      fake = await startFakeOpenAI(Object.values(basicFlowScripts));
      dir = await tempDir("live-cassette");
      scenarioFile = join(dir.path, "basic-flow.scenario.json");
      copyFileSync(BASIC_FLOW_FILE, scenarioFile);
      cassetteFile = join(dir.path, "basic-flow.cassette.json");
      recording = await runSpec(writeSpec(dir.path, scenarioFile, join(dir.path, "artifacts")), {
        FLOW_MODEL: "record",
        OPENAI_API_KEY: "test-key",
        OPENAI_BASE_URL: fake.baseURL,
      });
      wire = [...fake.requests];
    });

    after(async () => {
      await fake.close();
      dir.remove();
    });

    /** A folder with `scenario` as basic-flow.scenario.json and the recorded cassette, edited by `edit`. */
    async function replayFolder(scenario = readBasicFlow(), edit: (file: CassetteFile) => void = () => {}) {
      const copy = await tempDir("live-replay");
      const file = writeScenario(copy.path, "basic-flow", scenario);
      const cassette = JSON.parse(readFileSync(cassetteFile, "utf8")) as CassetteFile;
      edit(cassette);
      writeFileSync(join(copy.path, "basic-flow.cassette.json"), `${JSON.stringify(cassette, null, 2)}\n`);
      return { ...copy, file, cassette: join(copy.path, "basic-flow.cassette.json") };
    }

    const replay = (scenarioPath: string, artifacts: string, signal: AbortSignal) =>
      // No OPENAI_API_KEY; a fake's address is given so that any request would be seen.
      withFake((replayed) =>
        runSpec(
          writeSpec(artifacts, scenarioPath, join(artifacts, "artifacts")),
          { FLOW_MODEL: "replay", OPENAI_BASE_URL: replayed.baseURL },
          signal,
        ),
      );

    test("FLOW_MODEL=record passes the scenario and writes every model and judge call, in order, with its turn and label, next to the scenario", () => {
      assert.equal(recording.code, 0, recording.stdout + recording.stderr);
      const results = tapResults(recording.stdout);
      for (const name of [...TURN_TESTS, ...JUDGE_TESTS, "final state"])
        assert.deepEqual(result(results, name), PASSED, name);
      assert.equal(
        existsSync(FIXTURE_CASSETTE),
        false,
        "nothing is written next to the fixture the scenario was copied from",
      );

      const cassette = JSON.parse(readFileSync(cassetteFile, "utf8")) as CassetteFile;
      assert.equal(cassette.cassette, 2);
      assert.deepEqual(
        cassette.calls[0]!.where,
        { flow: "BasicFlow", step: "NameStep" },
        "an engine call's flow and step",
      );
      assert.equal(cassette.scenario, "basic-flow");
      assert.ok(!Number.isNaN(Date.parse(cassette.recordedAt)), cassette.recordedAt);
      assert.deepEqual(
        cassette.calls.map((call) => [
          call.position,
          call.turn,
          call.label,
          call.kind,
          call.where && "flow" in call.where ? `${call.where.flow}/${call.where.step}` : call.where,
        ]),
        CALLS,
      );

      // The tape holds what went over the wire, request by request.
      assert.equal(wire.length, cassette.calls.length);
      cassette.calls.forEach((call, index) => {
        const sent = wire[index]!;
        const at = `call ${call.position}`;
        if (call.kind === "judge") {
          assert.deepEqual(sent.response_format, { type: "json_object" }, at);
          assert.deepEqual(
            call.request,
            { model: "gpt-4o", system: sent.messages[0]!.content, user: sent.messages[1]!.content },
            at,
          );
          assert.deepEqual(
            call.reply,
            { content: PASSING_VERDICT, usage: { promptTokens: 100, completionTokens: 20 } },
            at,
          );
        } else {
          const request = call.request as {
            model: string;
            system: string;
            tools: { name: string }[];
            messages: unknown[];
          };
          assert.equal(sent.response_format, undefined, at);
          assert.equal(request.model, "gpt-4o-mini", at);
          assert.equal(sent.model, "gpt-4o-mini", at);
          assert.deepEqual(sent.messages[0], { role: "system", content: request.system }, at);
          assert.deepEqual(
            (sent.tools ?? []).map((tool) => tool.function.name),
            request.tools.map((tool) => tool.name),
            at,
          );
          assert.equal(sent.messages.length, request.messages.length + 1, at);
        }
      });
      assert.deepEqual((cassette.calls[0]!.request as { messages: unknown }).messages, [
        { role: "user", content: "John Doe" },
      ]);
      assert.deepEqual(cassette.calls[1]!.reply, {
        content: 'Sorry, "John Doe" looks like a placeholder. What is your real name?',
        toolCalls: [],
      });
    });

    test("FLOW_MODEL=replay with no OPENAI_API_KEY passes every turn and judge test from the tape, making no request", async (t) => {
      const tape = readFileSync(cassetteFile, "utf8");
      const run = await replay(scenarioFile, dir.path, t.signal);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      for (const name of [...TURN_TESTS, ...JUDGE_TESTS, "final state"])
        assert.deepEqual(result(results, name), PASSED, name);
      assert.equal(judgeSummary(run.stdout), REPLAY_SUMMARY);
      assert.equal(run.requests, 0);
      assert.equal(readFileSync(cassetteFile, "utf8"), tape, "replay leaves the cassette as it was");
    });

    test("replay fails the turn whose request drifted with cassette_mismatch, naming the call, the turn, the field and both texts", async (t) => {
      const now =
        "The user is John Wick. Ask for exactly two city aliases (LA, NYC, SF, CHI, SEA, PDX) and call get_weather once per city.";
      const folder = await replayFolder(undefined, (cassette) => {
        const request = cassette.calls[6]!.request as { system: string };
        assert.ok(request.system.startsWith(now), request.system);
        request.system = request.system.replace("exactly two", "exactly 2");
      });
      try {
        const run = await replay(folder.file, folder.path, t.signal);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        const results = tapResults(run.stdout);
        for (const name of [
          "1. name rejected",
          "1. name rejected · judge",
          "2. name accepted",
          "2. name accepted · judge",
        ])
          assert.deepEqual(result(results, name), PASSED, name);

        const third = result(results, "3. two cities");
        assert.equal(third.ok, false);
        const lines = third.error?.split("\n") ?? [];
        assert.deepEqual(lines.slice(0, 3), [
          `${turnLocation(folder.file, "two cities", ROOT)}: turn 3 'two cities': expected status 200, got 502 (cassette_mismatch: Replay of ${folder.cassette}: call 7 (turn 3 'two cities', BasicFlow/WeatherStep) differs from the recording in system:`,
          '  recorded: "The user is John Wick. Ask for exactly 2 city aliases (LA, NYC, SF, CHI, SEA, PDX) and call get_wea…"',
          '  now:      "The user is John Wick. Ask for exactly two city aliases (LA, NYC, SF, CHI, SEA, PDX) and call get_w…"',
        ]);
        // The status message quotes the error in full, so the response is not repeated after it.
        assert.equal(lines[3], "If the change is intended, record the cassette again with FLOW_MODEL=record.)");
        assert.equal(result(results, "3. two cities · judge").directive, "SKIP turn 3 failed its contracts");
        for (const name of [
          "4. bad zip stays",
          "5. address completes the flow",
          "6. completed session refuses more",
          "final state",
        ]) {
          assert.equal(result(results, name).directive, "SKIP turn 3 failed", name);
        }
        assert.equal(run.requests, 0, "replay made no request");
      } finally {
        folder.remove();
      }
    });

    test("a version 1 cassette (each model call's where a Flow/Step text) replays with no request and is left as it was", async (t) => {
      const folder = await replayFolder();
      try {
        // Version 1 as flowcheck wrote it before started apps' calls were taped, written out by hand.
        const v2 = JSON.parse(readFileSync(folder.cassette, "utf8")) as CassetteFile;
        const v1 = {
          ...v2,
          cassette: 1,
          calls: v2.calls.map(({ where, ...call }) =>
            where && "flow" in where ? { ...call, where: `${where.flow}/${where.step}` } : call,
          ),
        };
        const text = `${JSON.stringify(v1, null, 2)}\n`;
        writeFileSync(folder.cassette, text);
        const run = await replay(folder.file, folder.path, t.signal);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const results = tapResults(run.stdout);
        for (const name of [...TURN_TESTS, ...JUDGE_TESTS, "final state"])
          assert.deepEqual(result(results, name), PASSED, name);
        assert.equal(run.requests, 0);
        assert.equal(readFileSync(folder.cassette, "utf8"), text, "replay migrates in memory, never the file");
      } finally {
        folder.remove();
      }
    });

    test("a cassette of a version this flowcheck does not read fails the conversation naming the file and the versions it reads", async (t) => {
      const folder = await replayFolder(undefined, (cassette) => {
        (cassette as { cassette: number }).cassette = 3;
      });
      try {
        const run = await replay(folder.file, folder.path, t.signal);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        const suite = result(
          tapResults(run.stdout),
          "the target starts, serves the flow, and the persisted contract can be checked",
        );
        assert.equal(
          suite.error,
          `${folder.cassette} is cassette version 3, and this flowcheck reads versions 1 and 2: ` +
            "play it with the flowcheck that recorded it, or record it again with FLOW_MODEL=record.",
        );
        assert.equal(run.requests, 0);
      } finally {
        folder.remove();
      }
    });

    test("replay of a cassette recorded before the judge's texts went as one JSON object fails the first judge test on the judge call's system message, saying to record again", async (t) => {
      const folder = await replayFolder(undefined, (cassette) => {
        for (const call of cassette.calls.filter((recorded) => recorded.kind === "judge"))
          call.request = beforeJsonFields(call.request as JudgeRequest);
      });
      try {
        const run = await replay(folder.file, folder.path, t.signal);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        const results = tapResults(run.stdout);
        assert.deepEqual(result(results, "1. name rejected"), PASSED);
        const judged = result(results, "1. name rejected · judge");
        assert.equal(judged.ok, false);
        const lines = judged.error?.split("\n") ?? [];
        assert.equal(
          lines[0],
          `${turnLocation(folder.file, "name rejected", ROOT)}: turn 1 'name rejected': the judge model gpt-4o failed: cassette_mismatch: Replay of ${folder.cassette}: call 3 (turn 1 'name rejected', judge) differs from the recording in system:`,
        );
        assert.deepEqual(lines.slice(1, 3), [
          '  recorded: "…nst an expectation a test author wrote.\\nJudge only what the expectation asks about. Ignore wording, …"',
          '  now:      "…nst an expectation a test author wrote.\\nThe user message is one JSON object with these fields, all o…"',
        ]);
        assert.equal(lines[3], "If the change is intended, record the cassette again with FLOW_MODEL=record.");
        // The judge call it could not replay is still the tape's next call, so the next turn's model call meets it.
        const next = result(results, "2. name accepted");
        assert.equal(next.ok, false);
        assert.match(
          next.error ?? "",
          /got 502 \(cassette_mismatch: Replay of .*: call 3 \(turn 2 'name accepted', BasicFlow\/NameStep\) is a model call, but the recording has a judge call there/,
        );
        assert.equal(run.requests, 0, "replay made no request");
      } finally {
        folder.remove();
      }
    });

    test("replay of a scenario that lost its last judged turns fails the final state, saying how many recorded calls were never made", async (t) => {
      const scenario = readBasicFlow();
      scenario.turns = scenario.turns.slice(0, 4);
      // Without turn 5 the flow does not complete: only the leftover calls are left to fail the final state.
      delete scenario.finalState;
      delete scenario.finalExecution;
      delete scenario.finalChildren;
      const folder = await replayFolder(scenario);
      try {
        const run = await replay(folder.file, folder.path, t.signal);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        const results = tapResults(run.stdout);
        for (const name of [...TURN_TESTS.slice(0, 4), ...JUDGE_TESTS.slice(0, 4)])
          assert.deepEqual(result(results, name), PASSED, name);
        const left = CALLS.filter(([, turn]) => turn === 5);
        assert.equal(left.length, 5);
        const shown = relative(ROOT, join(folder.path, "artifacts", "basic-flow-contract-failure.json"));
        assert.deepEqual(result(results, "final state"), {
          ok: false,
          directive: undefined,
          error:
            `${finalLocation(folder.file, ROOT)}: final state: every recorded call made: 5 recorded calls were never made, from call 15 (turn 5 'address completes the flow', BasicFlow/AddressStep) in ${folder.cassette}. ` +
            "The flow now makes fewer calls than when it was recorded. If the change is intended, record the cassette again with FLOW_MODEL=record.\n" +
            `Transcript: ${shown} (flowcheck transcript ${shown})`,
        });
      } finally {
        folder.remove();
      }
    });
  });

  describe("cassettes under CI", () => {
    test("with CI=1, FLOW_MODEL=record is refused with config_invalid before any request, and no cassette is written", async (t) => {
      const dir = await tempDir("live-ci-record");
      try {
        const { run, suite } = await underCi(dir.path, "record", t.signal);
        assert.equal(
          suite.error,
          "The environment is not valid:\n" +
            "- FLOW_MODEL=record is refused under CI (CI is set): CI replays cassettes and never calls a live model. Record on a workstation and commit the cassette.",
        );
        assert.match(run.stdout, /^\s+code: 'config_invalid'$/m);
        assert.match(run.stdout, /^# pass 0$/m);
        assert.match(run.stdout, /^# fail 1$/m);
        assert.equal(
          result(tapResults(run.stdout), "1. name rejected").directive,
          "SKIP the target did not start; the first test has the error",
        );
        assert.equal(run.requests, 0);
        assert.equal(existsSync(join(dir.path, "basic-flow.cassette.json")), false);
      } finally {
        dir.remove();
      }
    });

    test("with CI=1 and FLOW_MODEL=replay, a missing cassette fails with cassette_missing and makes no request, even with a key", async (t) => {
      const dir = await tempDir("live-ci-replay");
      try {
        const { scenario, run, suite } = await underCi(dir.path, "replay", t.signal);
        assert.equal(
          suite.error,
          `FLOW_MODEL=replay has no cassette for ${scenario}: ${join(dir.path, "basic-flow.cassette.json")} does not exist. ` +
            "Under CI a missing cassette is an error, never a live call: record it on a workstation (FLOW_MODEL=record) and commit it.",
        );
        assert.match(run.stdout, /^\s+code: 'cassette_missing'$/m);
        assert.match(run.stdout, /^# pass 0$/m);
        assert.equal(run.requests, 0);
      } finally {
        dir.remove();
      }
    });
  });
});
