import { existsSync } from "node:fs";
import { isFlowcheckError } from "../../errors.ts";
import { closestName } from "../scenario/closest-name.ts";
import { loadScenario } from "../scenario/load-scenario.ts";
import { DEFAULT_JUDGE_MIN_SCORE, type LoadedScenario } from "../scenario/scenario.ts";
import { scenarioCases } from "../scenario/scenario-cases.ts";
import { scenarioHeaderOf } from "../scenario/scenario-discovery.ts";
import { shownPath } from "../scenario/scenario-location.ts";
import { inputText } from "../scenario/turn-input.ts";
import type { JudgeSettings } from "./judge-calibration-file.ts";
import type { JudgeLabel } from "./judge-labels.ts";
import { judgePrompt, wholeJudgePrompt } from "./judge-prompt.ts";
import type { JudgeRequest } from "./judge-client.ts";

/** One label, ready to be graded again as its scenario is set up now. */
export interface CalibrationItem {
  /** Its place in the labels file: `labels[index]`. */
  index: number;
  label: JudgeLabel;
  /** `scenarios/hotel-flow.scenario.json:27`: the labelled turn in its file. */
  location: string;
  minScore: number;
  settings: JudgeSettings;
  /** The same for every label graded with the same model, minScore and instructions (in full). */
  group: string;
  /** The judge's call: the scenario's model and instructions, the label's conversation, input, answer and expectation. */
  request: JudgeRequest;
  /** The scenario's expectation now, when it is not the one the person judged the answer against. */
  expectedNow?: string;
}

/** A label that cannot be graded, and why, naming its place in the labels file. */
export interface CalibrationSetAside {
  file: string;
  turn: string;
  why: string;
}

/** What a label is graded against: a turn of the scenario, or its `success.judge` for a whole conversation. */
interface Target {
  line: number | undefined;
  expected: string | undefined;
  minScore: number | undefined;
  input: string;
}

/**
 * Each label as its scenario is graded now, in the labels' order, and those that cannot be graded:
 * a scenario file that is missing or does not load, a case or a turn it no longer has. `judgeModel`
 * is the run's judge model, for a scenario that names none.
 */
export function calibrationItems(
  labels: readonly JudgeLabel[],
  judgeModel: string,
): { items: CalibrationItem[]; setAside: CalibrationSetAside[] } {
  const loaded = new Map<string, LoadedScenario[] | string>();
  const items: CalibrationItem[] = [];
  const setAside: CalibrationSetAside[] = [];
  labels.forEach((label, index) => {
    if (!loaded.has(label.file)) loaded.set(label.file, scenariosOf(label.file));
    const item = itemOf(label, index, loaded.get(label.file)!, judgeModel);
    if (typeof item === "string")
      setAside.push({ file: label.file, turn: label.turn, why: `labels[${index}]: ${item}` });
    else items.push(item);
  });
  return { items, setAside };
}

/**
 * The scenarios a file plays (one per case), or why it cannot be read. No flow is started here, so
 * the file is checked against an outline of its own flow: its steps are not checked.
 */
function scenariosOf(file: string): LoadedScenario[] | string {
  if (!existsSync(file)) return `${file} does not exist; fix the label's "file", or remove the label`;
  const header = scenarioHeaderOf(file);
  const flowName = typeof header?.flowName === "string" ? header.flowName : "";
  const turns = Array.isArray(header?.turns) ? (header.turns as { input?: unknown }[]) : [];
  const textOnly = turns.every((turn) => turn?.input === undefined || typeof turn.input === "string");
  try {
    const outline = {
      name: flowName,
      stepNames: undefined,
      servedBy: `${flowName} (its steps are not checked when grading labels)`,
      // A turn whose input is not text is a LangGraph target's: read as one, not refused.
      kind: textOnly ? ("flowcheck" as const) : ("langgraph" as const),
    };
    return scenarioCases(loadScenario(file, [], { outline }));
  } catch (error) {
    if (!isFlowcheckError(error)) throw error;
    const problems = error.message.split("\n").slice(1).join(" ");
    return `${file} does not load as a scenario: ${problems || error.message} Fix it (flowcheck check ${file} lists its problems).`;
  }
}

function itemOf(
  label: JudgeLabel,
  index: number,
  scenarios: LoadedScenario[] | string,
  judgeModel: string,
): CalibrationItem | string {
  if (typeof scenarios === "string") return `turn "${label.turn}" cannot be graded: ${scenarios}`;
  const loaded = scenarios.find((each) => each.caseLabel === label.caseLabel);
  if (!loaded) {
    const cases = scenarios.flatMap((each) => each.caseLabel ?? []);
    const guess = label.caseLabel === undefined ? undefined : closestName(label.caseLabel, cases);
    return `${label.file} has no case ${JSON.stringify(label.caseLabel ?? "(none)")}${guess ? `; the closest is "${guess}"` : ""}`;
  }
  const target = targetOf(loaded, label);
  if (typeof target === "string") return target;
  const scenario = loaded.scenario;
  const minScore = target.minScore ?? scenario.judgeMinScore ?? DEFAULT_JUDGE_MIN_SCORE;
  const model = scenario.judgeModel ?? judgeModel;
  const instructions = scenario.judgeInstructions;
  const settings: JudgeSettings = {
    model,
    minScore,
    ...(instructions?.trim() ? { instructions: instructions.trim().split("\n")[0]! } : {}),
  };
  const request = { model, ...promptOf(label, target.input, instructions) };
  const location = `${shownPath(label.file)}${target.line === undefined ? "" : `:${target.line}`}`;
  const expectedNow = target.expected === label.expected ? {} : { expectedNow: target.expected ?? "" };
  const group = JSON.stringify([model, minScore, instructions?.trim() ?? null]);
  return { index, label, location, minScore, settings, group, request, ...expectedNow };
}

/** The turn a label is of, or its scenario's `success.judge` for a whole conversation's label; or why there is none. */
function targetOf(loaded: LoadedScenario, label: JudgeLabel): Target | string {
  const scenario = loaded.scenario;
  const at = scenario.turns.findIndex((turn) => turn.label === label.turn);
  if (label.whole && at < 0) {
    if (scenario.success?.judge === undefined)
      return `${label.file} has no success.judge now, which the label's whole conversation was graded against`;
    return {
      line: loaded.lines?.final,
      expected: scenario.success.judge,
      minScore: scenario.success.minScore,
      input: "",
    };
  }
  if (at < 0) {
    const guess = closestName(
      label.turn,
      scenario.turns.map((turn) => turn.label),
    );
    return (
      `${label.file} has no turn "${label.turn}"${guess ? `; the closest is "${guess}"` : ""}: ` +
      `fix the label's "turn", or remove the label`
    );
  }
  const turn = scenario.turns[at]!;
  return {
    line: loaded.lines?.turns[at],
    expected: turn.expectedResponse,
    minScore: turn.minScore,
    input: inputText(turn.input),
  };
}

/** The judge's prompt as a run would send it for the labelled answer, from what the label kept. */
function promptOf(label: JudgeLabel, turnInput: string, instructions: string | undefined): Omit<JudgeRequest, "model"> {
  const conversation = label.conversation ?? [];
  const input = label.input ?? turnInput;
  const flow = instructions ? { instructions } : {};
  if (label.whole)
    return wholeJudgePrompt({
      conversation: [...conversation, { user: input, assistant: label.answer }],
      criterion: label.expected,
      ...flow,
    });
  return judgePrompt({ conversation, input, answer: label.answer, expectation: label.expected, ...flow });
}
