import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { answerSha256, type JudgeLabel } from "../../src/testing/judge/judge-labels.ts";
import type { JudgeCalibration } from "../../src/testing/judge/judge-calibration-file.ts";
import { ROOT, runFlowcheck, type ChildRun } from "../support/child-run.ts";
import { chatCompletion, startStandInProvider, type StandInProvider } from "../support/stand-in-provider.ts";

const FIXTURES = join(ROOT, "test", "fixtures", "judge-calibration");
const GREETING = "scenarios/greeting.scenario.json";
const WEATHER = "scenarios/weather.scenario.json";

/** One sample of the stand-in judge: its verdict's pass and score, or a text that is not a verdict. */
type Sample = { pass: boolean; score: number } | string;

/** A labelled answer: the marker the stand-in judge knows it by, where it is from, the person's verdict, the judge's samples. */
interface Row {
  marker: string;
  file: string;
  turn: string;
  human: "pass" | "fail";
  samples: Sample[];
}

/**
 * The twelve answers. The judge's verdict is `pass && score >= minScore`: 0.75 in greeting, 0.6 in
 * weather. Against the people:
 *
 *                 people pass   people fail
 *   judge pass    a1 a2 a7 b1 b4 (5)   a4 b2 (2)       ← false passes: a4, b2
 *   judge fail    a5 b5 (2)            a3 a6 b3 (3)    ← false fails: a5 (0.7 < 0.75), b5 (pass false)
 *
 * agreement po = (5 + 3) / 12 = 8/12 = 66.7%
 * judge pass rate 7/12, people pass rate 7/12
 * pe = 7/12 · 7/12 + 5/12 · 5/12 = (49 + 25) / 144 = 74/144
 * κ = (po − pe) / (1 − pe) = (96/144 − 74/144) / (70/144) = 22/70 = 0.314… → "0.31"
 *
 * Best minScore overall (current 0.75, the one 7 of 12 labels are graded at; the answers with
 * pass false, a3 a6 b3 b5, grade 3 of 4 right at any threshold): at 0.7, b2 (0.65) fails and a5 (0.7)
 * passes, a4 (0.8) still passes: 7 of the other 8 right, 10/12 = 83.3%; 0.65 gives 9, 0.75 and 0.8
 * give 9, 0.85 gives 9, 0.9 gives 8. Greeting alone (0.75): 0.7 and 0.85 both give 6/7, 0.7 is
 * nearer. Weather alone (0.6): 0.8 gives 4/5 (b2 fails, b4 passes).
 */
const TABLE: Row[] = [
  row("a1", GREETING, "asks for a name", "pass", 0.9),
  row("a2", GREETING, "asks for a name", "pass", 0.95),
  row("a3", GREETING, "asks for a name", "fail", 0.2, false),
  row("a4", GREETING, "rejects a placeholder name", "fail", 0.8),
  row("a5", GREETING, "rejects a placeholder name", "pass", 0.7),
  row("a6", GREETING, "rejects a placeholder name", "fail", 0.1, false),
  row("a7", GREETING, "rejects a placeholder name", "pass", 0.85),
  row("b1", WEATHER, "reports two cities", "pass", 0.9),
  row("b2", WEATHER, "reports two cities", "fail", 0.65),
  row("b3", WEATHER, "reports two cities", "fail", 0.3, false),
  row("b4", WEATHER, "accepts the address", "pass", 0.8),
  row("b5", WEATHER, "accepts the address", "pass", 0.4, false),
];

function row(marker: string, file: string, turn: string, human: "pass" | "fail", score: number, pass = true): Row {
  return { marker, file, turn, human, samples: [{ pass, score }] };
}

/** The line of a turn's label in a fixture file, found by reading the file. */
function lineOf(file: string, turn: string): number {
  const lines = readFileSync(join(FIXTURES, file.replace("scenarios/", "")), "utf8").split("\n");
  return lines.findIndex((line) => line.includes(`"label": "${turn}"`)) + 1;
}

function expectationOf(file: string, turn: string): string {
  const scenario = JSON.parse(readFileSync(join(FIXTURES, file.replace("scenarios/", "")), "utf8")) as {
    turns: { label: string; expectedResponse: string }[];
  };
  return scenario.turns.find((each) => each.label === turn)!.expectedResponse;
}

function labelOf(each: Pick<Row, "marker" | "file" | "turn" | "human">): JudgeLabel {
  const answer = `Answer [${each.marker}]: Hello! What is your full name? I can help with the weather too.`;
  return {
    file: each.file,
    turn: each.turn,
    expected: expectationOf(each.file, each.turn),
    answer,
    answerSha256: answerSha256(answer),
    human: each.human,
    note: `labelled ${each.marker}`,
  };
}

/** A project folder with the fixture scenarios under scenarios/ and a labels file of `rows`. */
function project(rows: readonly Pick<Row, "marker" | "file" | "turn" | "human">[], extra: JudgeLabel[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-calibrate-"));
  mkdirSync(join(dir, "scenarios"));
  cpSync(FIXTURES, join(dir, "scenarios"), { recursive: true });
  writeLabels(dir, [...rows.map(labelOf), ...extra]);
  return dir;
}

function writeLabels(dir: string, labels: JudgeLabel[]): void {
  writeFileSync(join(dir, "scenarios", "judge-labels.json"), `${JSON.stringify({ labels }, null, 2)}\n`);
}

/** The stand-in judge: each request's verdict is the table's, by the marker in the answer it grades, sample after sample. */
function judgeBy(provider: StandInProvider, rows: readonly Row[]): void {
  const asked = new Map<string, number>();
  provider.answer = (request) => {
    const messages = request.body["messages"] as { content: string }[];
    const answer = (JSON.parse(messages[1]!.content) as { answer: string }).answer;
    const marker = /\[(\w+)\]/.exec(answer)![1]!;
    const samples = rows.find((each) => each.marker === marker)!.samples;
    const count = asked.get(marker) ?? 0;
    asked.set(marker, count + 1);
    const sample = samples[count % samples.length]!;
    const content =
      typeof sample === "string"
        ? sample
        : JSON.stringify({ ...sample, reason: `verdict of ${marker}`, missing: [], contradictions: [] });
    return { status: 200, body: chatCompletion({ content, toolCalls: [] }) };
  };
}

function calibrate(
  dir: string,
  args: string[],
  provider: StandInProvider | undefined,
  env: Record<string, string> = {},
) {
  return runFlowcheck(
    ["judge", "calibrate", ...args],
    {
      OPENAI_MAX_RETRIES: "0",
      OPENAI_TIMEOUT_MS: "5000",
      ...(provider ? { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: provider.baseURL } : {}),
      ...env,
    },
    undefined,
    dir,
  );
}

function resultOf(dir: string): JudgeCalibration {
  return JSON.parse(readFileSync(join(dir, "test", ".tmp", "judge-calibration.json"), "utf8")) as JudgeCalibration;
}

function shows(run: ChildRun): string {
  return `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
}

describe("flowcheck judge calibrate", () => {
  let provider: StandInProvider;
  const dirs: string[] = [];
  const made = (dir: string) => (dirs.push(dir), dir);
  before(async () => {
    provider = await startStandInProvider();
  });
  after(async () => {
    await provider.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("prints the agreement and κ of the twelve labels as computed by hand, the misses with their file:line, and the best minScore", async () => {
    judgeBy(provider, TABLE);
    const dir = made(project(TABLE));
    const before = provider.requests.length;
    const run = await calibrate(dir, [], provider);
    assert.equal(run.code, 0, shows(run));
    assert.equal(provider.requests.length - before, 36, "3 samples of each of the 12 labels, each a request");
    assert.match(run.stdout, /overall \(12 labels\)\n {2}agreement: 66\.7% \(8 of 12\)\n {2}Cohen's κ: 0\.31\n/);
    assert.match(run.stdout, /overall[^]*?best minScore: 0\.7 \(agreement 83\.3%\)/);
    const falsePasses = /false passes \(the judge passed, the people failed\): 2\n([^]*?)\n {2}false fails/.exec(
      run.stdout,
    )?.[1];
    assert.ok(falsePasses, run.stdout);
    assert.match(
      falsePasses,
      new RegExp(
        `${GREETING}:${lineOf(GREETING, "rejects a placeholder name")} › rejects a placeholder name\n.*\\[a4\\][^]*score 0\\.8: verdict of a4`,
      ),
    );
    assert.match(
      falsePasses,
      new RegExp(
        `${WEATHER}:${lineOf(WEATHER, "reports two cities")} › reports two cities\n.*\\[b2\\][^]*score 0\\.65: verdict of b2`,
      ),
    );
    const falseFails = /false fails \(the judge failed, the people passed\): 2\n([^]*?)\n {2}unstable/.exec(
      run.stdout,
    )?.[1];
    assert.ok(falseFails, run.stdout);
    assert.match(
      falseFails,
      new RegExp(`${GREETING}:${lineOf(GREETING, "rejects a placeholder name")} › .*\n.*\\[a5\\]`),
    );
    assert.match(falseFails, new RegExp(`${WEATHER}:${lineOf(WEATHER, "accepts the address")} › .*\n.*\\[b5\\]`));
    assert.match(
      run.stdout,
      /judge gpt-4o, minScore 0\.75 \(7 labels\)\n {2}agreement: 71\.4% \(5 of 7\)[^]*?best minScore: 0\.7 \(agreement 85\.7%\)/,
    );
    assert.match(
      run.stdout,
      /judge gpt-4o, minScore 0\.6, judgeInstructions "Temperatures may be given in °F or °C\." \(5 labels\)\n {2}agreement: 60% \(3 of 5\)[^]*?best minScore: 0\.8 \(agreement 80%\)/,
    );
    const result = resultOf(dir);
    assert.deepEqual(Object.keys(result).sort(), [
      "agreement",
      "bestMinScore",
      "calibration",
      "falseFails",
      "falsePasses",
      "kappa",
      "labels",
      "labelsFile",
      "perSettings",
      "samples",
      "setAside",
      "unstable",
      "writtenAt",
    ]);
    assert.equal(result.agreement, 8 / 12);
    assert.ok(Math.abs(result.kappa! - 22 / 70) < 1e-12, `κ ${result.kappa}`);
    assert.equal(result.bestMinScore.minScore, 0.7);
    assert.ok(Math.abs(result.bestMinScore.agreement - 10 / 12) < 1e-12);
    assert.deepEqual(
      result.falsePasses.map((miss) => miss.location),
      [
        `${GREETING}:${lineOf(GREETING, "rejects a placeholder name")}`,
        `${WEATHER}:${lineOf(WEATHER, "reports two cities")}`,
      ],
    );
    assert.deepEqual(
      result.perSettings.map((group) => [group.settings.minScore, group.labels]),
      [
        [0.75, 7],
        [0.6, 5],
      ],
    );
    assert.equal(existsSync(join(dir, "scenarios", "judge-calibration.json")), false, "written only with --write");
  });

  test("--min-agreement above the agreement exits 1 saying so, below it exits 0; JUDGE_MIN_AGREEMENT too; --write writes the committed file", async () => {
    judgeBy(provider, TABLE);
    const dir = made(project(TABLE));
    const above = await calibrate(dir, ["--samples", "1", "--min-agreement", "0.9"], provider);
    assert.equal(above.code, 1, shows(above));
    assert.match(above.stdout, /the judge's agreement 66\.7% is below the 90% asked for/);
    const below = await calibrate(dir, ["--samples", "1", "--min-agreement", "0.6", "--write"], provider);
    assert.equal(below.code, 0, shows(below));
    assert.equal(JSON.parse(readFileSync(join(dir, "scenarios", "judge-calibration.json"), "utf8")).agreement, 8 / 12);
    const fromEnvironment = await calibrate(dir, ["--samples", "1"], provider, { JUDGE_MIN_AGREEMENT: "0.7" });
    assert.equal(fromEnvironment.code, 1, shows(fromEnvironment));
    const labels = readFileSync(join(dir, "scenarios", "judge-labels.json"), "utf8");
    assert.equal(
      labels,
      `${JSON.stringify({ labels: TABLE.map(labelOf) }, null, 2)}\n`,
      "the labels file is never written",
    );
  });

  test("samples that disagree make the label's verdict their majority, and name it unstable with each score and the spread", async () => {
    const rows: Row[] = [
      {
        ...TABLE[0]!,
        samples: [
          { pass: true, score: 0.9 },
          { pass: false, score: 0.3 },
          { pass: true, score: 0.85 },
        ],
      },
      { ...TABLE[2]!, samples: [{ pass: false, score: 0.2 }] },
      {
        ...TABLE[7]!,
        samples: [
          { pass: true, score: 0.5 },
          { pass: true, score: 0.9 },
          { pass: true, score: 0.55 },
        ],
      },
    ];
    judgeBy(provider, rows);
    const dir = made(project(rows));
    const run = await calibrate(dir, ["--samples", "3"], provider);
    assert.equal(run.code, 0, shows(run));
    assert.match(
      run.stdout,
      new RegExp(
        `unstable verdicts \\(the samples disagree\\): 2\n {4}${GREETING}:${lineOf(GREETING, "asks for a name")} › asks for a name: ` +
          `scores 0\\.9, 0\\.3, 0\\.85 \\(spread 0\\.6\\)\n {4}${WEATHER}:${lineOf(WEATHER, "reports two cities")} › reports two cities: ` +
          "scores 0\\.5, 0\\.9, 0\\.55 \\(spread 0\\.4\\)",
      ),
    );
    // a1 passes 2 of 3; b1 passes 1 of 3 at 0.6 (0.9 alone), so the judge fails it against a person's pass.
    assert.deepEqual(
      resultOf(dir).falseFails.map((miss) => miss.turn),
      ["reports two cities"],
    );
  });

  test("FLOW_MODEL=record tapes the calls beside the labels, and FLOW_MODEL=replay with the judge stopped gives the same figures with no request", async () => {
    const judge = await startStandInProvider();
    judgeBy(judge, TABLE);
    const dir = made(project(TABLE));
    const recorded = await calibrate(dir, [], judge, { FLOW_MODEL: "record" });
    assert.equal(recorded.code, 0, shows(recorded));
    const tape = join(dir, "scenarios", "judge-labels.cassette.json");
    const calls = JSON.parse(readFileSync(tape, "utf8")) as {
      cassette: number;
      calls: { kind: string; label: string }[];
    };
    assert.equal(calls.cassette, 2);
    assert.equal(calls.calls.length, 36);
    assert.ok(calls.calls.every((call) => call.kind === "judge"));
    assert.deepEqual(
      [...new Set(calls.calls.map((call) => call.label))],
      TABLE.map((each, index) => `labels[${index}] ${each.file} › ${each.turn}`),
      "the tape is in the labels' order",
    );
    const first = resultOf(dir);
    const asked = judge.requests.length;
    await judge.close();
    const replayed = await calibrate(dir, [], undefined, { FLOW_MODEL: "replay" });
    assert.equal(replayed.code, 0, shows(replayed));
    assert.equal(judge.requests.length, asked);
    const { writtenAt: _first, ...figures } = first;
    const { writtenAt: _again, ...again } = resultOf(dir);
    assert.deepEqual(again, figures);
    assert.equal(replayed.stdout.replace(/\nwrote[^]*$/, ""), recorded.stdout.replace(/\nwrote[^]*$/, ""));
    assert.match(replayed.stdout, /replayed scenarios\/judge-labels\.cassette\.json/);

    const changed = TABLE.map(labelOf);
    changed[3] = { ...changed[3]!, answer: "Another answer [a4]", answerSha256: answerSha256("Another answer [a4]") };
    writeLabels(dir, changed);
    const mismatch = await calibrate(dir, [], undefined, { FLOW_MODEL: "replay" });
    assert.equal(mismatch.code, 1, shows(mismatch));
    assert.match(
      mismatch.stderr,
      /cassette_mismatch: .*labels\[3\] scenarios\/greeting\.scenario\.json › rejects a placeholder name/,
    );
  });

  test("with no key and no tape it exits 2 saying to set OPENAI_API_KEY or replay a tape; under CI it never records", async () => {
    const dir = made(project(TABLE.slice(0, 2)));
    const run = await calibrate(dir, [], undefined);
    assert.equal(run.code, 2, shows(run));
    assert.match(run.stderr, /set OPENAI_API_KEY .*or replay a tape with FLOW_MODEL=replay/);
    const before = provider.requests.length;
    const underCi = await calibrate(dir, [], provider, { FLOW_MODEL: "auto", CI: "true" });
    assert.equal(underCi.code, 2, shows(underCi));
    assert.match(underCi.stderr, /under CI a tape is never recorded/);
    assert.equal(provider.requests.length, before);
    assert.equal(existsSync(join(dir, "scenarios", "judge-labels.cassette.json")), false);
  });

  test("the judge's calls hold to the provider limits: with one label at a time, FLOW_MAX_TOKENS spent sets the rest aside", async () => {
    const rows = TABLE.slice(0, 3);
    judgeBy(provider, rows);
    const dir = made(project(rows));
    const before = provider.requests.length;
    // The stand-in counts 17 tokens a call: the first label spends the budget of 10, so no other is started.
    const run = await calibrate(dir, ["--samples", "1"], provider, { FLOW_CONCURRENCY: "1", FLOW_MAX_TOKENS: "10" });
    assert.equal(run.code, 0, shows(run));
    assert.equal(provider.requests.length - before, 1);
    assert.match(run.stdout, /overall \(1 label\)/);
    assert.match(run.stdout, /labels\[1\]: .* not graded: FLOW_MAX_TOKENS=10 was reached/);
    assert.match(run.stdout, /labels\[2\]: .* not graded: FLOW_MAX_TOKENS=10 was reached/);
  });

  test("FLOW_MODEL=auto records the tape when there is none, then replays it", async () => {
    const rows = TABLE.slice(0, 3);
    judgeBy(provider, rows);
    const dir = made(project(rows));
    const before = provider.requests.length;
    const first = await calibrate(dir, ["--samples", "1"], provider, { FLOW_MODEL: "auto" });
    assert.equal(first.code, 0, shows(first));
    assert.match(first.stdout, /recorded scenarios\/judge-labels\.cassette\.json/);
    assert.equal(provider.requests.length - before, 3);
    const again = await calibrate(dir, ["--samples", "1"], provider, { FLOW_MODEL: "auto" });
    assert.equal(again.code, 0, shows(again));
    assert.match(again.stdout, /replayed scenarios\/judge-labels\.cassette\.json/);
    assert.equal(provider.requests.length - before, 3, "the replay asks no judge");
  });

  test("a label whose expectation is no longer the scenario's is graded against the label's, saying so", async () => {
    judgeBy(provider, TABLE);
    const label = labelOf(TABLE[0]!);
    const dir = made(project([], [{ ...label, expected: "The assistant should ask for a first name only." }]));
    const run = await calibrate(dir, ["--samples", "1"], provider);
    assert.equal(run.code, 0, shows(run));
    assert.match(
      run.stdout,
      new RegExp(
        `note: ${GREETING}:${lineOf(GREETING, "asks for a name")} › asks for a name: the scenario's expectation is now ` +
          '"The assistant should greet the user and ask for their full name\\."; labels\\[0\\] is graded against the one ' +
          'the person judged, "The assistant should ask for a first name only\\."',
      ),
    );
    const sent = provider.requests.at(-1)!.body["messages"] as { content: string }[];
    assert.equal(JSON.parse(sent[1]!.content).expectation, "The assistant should ask for a first name only.");
  });

  test("a label of a turn no scenario has is set aside with its line and the closest turn, and not counted", async () => {
    judgeBy(provider, TABLE);
    const stray = labelOf({ marker: "a1", file: GREETING, turn: "asks for a name", human: "pass" });
    const dir = made(
      project(TABLE.slice(0, 2), [
        { ...stray, turn: "asks for the name" },
        { ...stray, file: "scenarios/gone.scenario.json" },
      ]),
    );
    const run = await calibrate(dir, ["--samples", "1"], provider);
    assert.equal(run.code, 0, shows(run));
    assert.match(run.stdout, /overall \(2 labels\)/);
    assert.match(
      run.stdout,
      /set aside, not counted: 2\n {2}labels\[2\]: scenarios\/greeting\.scenario\.json has no turn "asks for the name"; the closest is "asks for a name"/,
    );
    assert.match(
      run.stdout,
      /\n {2}labels\[3\]: turn "asks for a name" cannot be graded: scenarios\/gone\.scenario\.json does not exist/,
    );
    assert.equal(resultOf(dir).setAside.length, 2);
  });

  test("when no label can be graded it exits 1 and leaves the committed calibration as it was", async () => {
    const stray = labelOf({ marker: "a1", file: GREETING, turn: "asks for a name", human: "pass" });
    const dir = made(project([], [{ ...stray, turn: "gone" }]));
    writeFileSync(join(dir, "scenarios", "judge-calibration.json"), "kept\n");
    const run = await calibrate(dir, ["--write"], provider);
    assert.equal(run.code, 1, shows(run));
    assert.match(
      run.stdout,
      /no label could be graded, so the judge's agreement is not known and scenarios\/judge-calibration\.json was left as it was/,
    );
    assert.equal(readFileSync(join(dir, "scenarios", "judge-calibration.json"), "utf8"), "kept\n");
    assert.equal(resultOf(dir).labels, 0);
  });

  test("a judge that answers twice with no verdict's JSON sets the label aside, quoting what came back", async () => {
    const rows: Row[] = [TABLE[0]!, { ...TABLE[1]!, samples: ["I think it passes.", "Still not JSON"] }];
    judgeBy(provider, rows);
    const dir = made(project(rows));
    const run = await calibrate(dir, ["--samples", "1"], provider);
    assert.equal(run.code, 0, shows(run));
    assert.match(
      run.stdout,
      /labels\[1\]: scenarios\/greeting\.scenario\.json:\d+ › asks for a name: the judge gpt-4o gave no valid verdict in 2 tries .*"I think it passes\.".*"Still not JSON"/,
    );
    assert.match(run.stdout, /overall \(1 label\)/);
  });

  test("κ is n/a (one class) when every label is one verdict", async () => {
    const rows = [TABLE[0]!, TABLE[1]!, TABLE[7]!];
    judgeBy(provider, rows);
    const dir = made(project(rows));
    const run = await calibrate(dir, ["--samples", "1"], provider);
    assert.equal(run.code, 0, shows(run));
    assert.match(run.stdout, /agreement: 100% \(3 of 3\)\n {2}Cohen's κ: n\/a \(one class\)/);
    assert.equal(resultOf(dir).kappa, null);
  });

  for (const [samples, why] of [
    ["0", "zero"],
    ["2", "even"],
    ["three", "not a number"],
  ] as const)
    test(`--samples ${samples} (${why}) exits 2 saying what to give`, async () => {
      const dir = made(project(TABLE.slice(0, 1)));
      const run = await calibrate(dir, ["--samples", samples], provider);
      assert.equal(run.code, 2, shows(run));
      assert.match(
        run.stderr,
        new RegExp(`--samples ${samples} is not an odd number of samples: give an odd whole number`),
      );
    });

  test("a labels file that is not one exits 1 naming the JSON path, and is left as it was", async () => {
    const dir = made(project([]));
    const broken = `${JSON.stringify({ labels: [{ ...labelOf(TABLE[0]!), human: "maybe" }] })}\n`;
    writeFileSync(join(dir, "scenarios", "judge-labels.json"), broken);
    const run = await calibrate(dir, [], provider);
    assert.equal(run.code, 1, shows(run));
    assert.match(run.stderr, /judge_labels_invalid: .*\n- labels\[0\]\.human/);
    assert.equal(readFileSync(join(dir, "scenarios", "judge-labels.json"), "utf8"), broken);
  });

  test("--min-agreement outside 0..1 exits 2 saying what to give", async () => {
    const dir = made(project(TABLE.slice(0, 1)));
    const run = await calibrate(dir, ["--min-agreement", "90"], provider);
    assert.equal(run.code, 2, shows(run));
    assert.match(run.stderr, /--min-agreement 90 is not an agreement: give a fraction from 0 to 1/);
  });
});
