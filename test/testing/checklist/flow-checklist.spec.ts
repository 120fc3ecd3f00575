import assert from "node:assert/strict";
import { test } from "node:test";
import { runChecklist } from "../../../src/testing/checklist/flow-checklist.ts";
import { strictFailures } from "../../../src/testing/report/render-checklist.ts";
import type { Check } from "../../../src/testing/checks/check.ts";
import { mergeRunResults, runResultsOf } from "../../../src/testing/report/merge-run-results.ts";
import type {
  ConversationResult,
  ProjectProof,
  RunRecordLine,
  RunResults,
  TurnResult,
} from "../../../src/testing/report/run-results.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";

const FILES = ["fixtures/a.scenario.json", "fixtures/b.scenario.json"];
const INFO = { startedAt: "2027-01-01T00:00:00.000Z", endedAt: "2027-01-01T00:00:01.000Z" };

/** A conversation of BasicFlow that ran no turn: enough to say which files ran, and to prove nothing. */
function ranFile(file: string): ConversationResult {
  return {
    id: `${file}#x`,
    file,
    name: "x",
    flowName: "BasicFlow",
    repeat: { index: 1, of: 1 },
    outcome: "passed",
    ran: true,
    pins: {},
    models: {},
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns: [],
  };
}

const resultsOf = (...files: string[]): RunResults =>
  runResultsOf(
    files.map((file) => ({ conversation: ranFile(file) })),
    INFO,
  );
const checklistOf = (results: RunResults) =>
  runChecklist({ results, flows: [BasicFlow], scenarioFiles: { BasicFlow: FILES }, strict: () => true });

test("a flow is not judged while one of its scenario files did not run, so a strict run fails nothing for it", () => {
  const [flow, child] = checklistOf(resultsOf(FILES[0]!));
  assert.equal(flow!.judged, false);
  assert.deepEqual(flow!.scenarios, { total: 2, ran: 1 });
  assert.ok(flow!.points.every((point) => point.status === "not judged" || point.status === "not applicable"));
  assert.match(flow!.points[0]!.detail, /1 of its 2 scenario files did not run here/);
  assert.equal(child!.flow, "AddressCheck");
  assert.equal(child!.judged, false);
  assert.deepEqual(strictFailures([flow!, child!]), []);
});

test("the shards' results merged are judged whole, and what they did not prove is missing, strict or not", () => {
  const merged = mergeRunResults([
    { file: "shard-1/run-results.json", results: resultsOf(FILES[0]!) },
    { file: "shard-2/run-results.json", results: resultsOf(FILES[1]!) },
  ]);
  const [flow] = checklistOf(merged);
  assert.equal(flow!.judged, true);
  const statuses = Object.fromEntries(flow!.points.map((point) => [point.id, point.status]));
  // Conversations that played no turn prove the listing and nothing a turn would have to.
  assert.equal(statuses["1"], "proved");
  for (const id of ["2", "3", "4", "6", "7", "8", "steps"]) assert.equal(statuses[id], "missing", id);
  assert.ok(
    strictFailures([flow!]).some((failure) =>
      failure.startsWith(
        "BasicFlow, point 4 (each tool refuses bad input in place): add a turn whose input NameStep.save_name",
      ),
    ),
  );
});

test("the project-wide points come from the proofs the run noted: every document version and the reset, and the typecheck", () => {
  const partial = runResultsOf(
    [
      { conversation: ranFile(FILES[0]!) },
      { conversation: ranFile(FILES[1]!) },
      { projectProof: { point: "10", key: "v1" } },
    ],
    INFO,
  );
  const points = (results: RunResults) =>
    Object.fromEntries(checklistOf(results)[0]!.points.map((point) => [point.id, point]));
  assert.equal(points(partial)["10"]!.status, "missing");
  assert.match(points(partial)["10"]!.detail, /no passing migration or reset test for v2, reset/);
  assert.equal(points(partial)["12"]!.status, "not judged");
  const proofs: ProjectProof[] = [
    { point: "10", key: "v1" },
    { point: "10", key: "v2" },
    { point: "10", key: "reset" },
    { point: "12", key: "typecheck" },
  ];
  const lines: RunRecordLine[] = [
    ...FILES.map((file) => ({ conversation: ranFile(file) })),
    ...proofs.map((projectProof) => ({ projectProof })),
  ];
  const whole = runResultsOf(lines, INFO);
  assert.equal(points(whole)["10"]!.status, "proved");
  assert.equal(points(whole)["12"]!.status, "proved");
});

test("a simulated user's turns, which carry no expectations by design, are not asked for them; a fixed turn without them is", () => {
  const checked = (contract: Check["contract"], name: string): Check => ({ contract, name, outcome: "passed" });
  const turn = (number: number, label: string, checks: Check[], simulated?: TurnResult["simulated"]): TurnResult => ({
    number,
    label,
    input: label,
    outcome: "passed",
    checks,
    ...(simulated ? { simulated } : {}),
  });
  const fixed = turn(1, "hello", [
    checked("expectation", "responseMustInclude[0]"),
    checked("persisted", "expectedActiveStep"),
    checked("persisted", "completed"),
  ]);
  const point3 = (second: TurnResult) => {
    const conversations = FILES.map((file) => ({ conversation: { ...ranFile(file), turns: [fixed, second] } }));
    return checklistOf(runResultsOf(conversations, INFO))[0]!.points.find((point) => point.id === "3")!;
  };

  const simulated = point3(turn(2, "user: LA, NYC", [checked("transport", "status")], { turn: 1 }));
  assert.equal(simulated.status, "proved");
  assert.match(simulated.detail, /^all 2 turns checked/);
  const unchecked = point3(turn(2, "LA, NYC", [checked("transport", "status")]));
  assert.equal(unchecked.status, "missing");
  assert.match(unchecked.detail, /x turn 2 'LA, NYC': add a check of the response/);
});
