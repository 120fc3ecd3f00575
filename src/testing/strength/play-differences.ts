import { isDeepStrictEqual } from "node:util";
import { mediaTypeOf } from "../answer/read-answer.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import { csvDifference } from "./csv-difference.ts";
import type { StrengthPlay } from "./strength-play.ts";

/** Something a mutant changed that a turn could observe, and the expectation that would have caught it. */
export interface PlayDifference {
  scenario: string;
  turn: number;
  label: string;
  /** What differed, e.g. `DatesStep.nights saved as 6 instead of 7`. */
  what: string;
  /** The expectation to add to that turn, e.g. `"expectState": { "DatesStep": { "nights": 7 } }`. */
  expectation: string;
}

const json = (value: unknown) => JSON.stringify(value);

/** A short piece of `baseline` that `mutated` lacks, from where the two first part. */
export function distinctivePhrase(baseline: string, mutated: string): string {
  let part = 0;
  while (part < baseline.length && baseline[part] === mutated[part]) part++;
  const start = baseline.lastIndexOf(" ", Math.max(part - 1, 0)) + 1;
  // Through the word after the one where they part, so the phrase is not a word the mutant kept.
  const next = baseline.indexOf(" ", part + 1);
  const end = next === -1 ? -1 : baseline.indexOf(" ", next + 1);
  const phrase = baseline.slice(start, end === -1 ? undefined : end).trim();
  if (phrase && !mutated.toLowerCase().includes(phrase.toLowerCase())) return phrase;
  return baseline.slice(0, 80).trim();
}

function stateDifferences(baseline: TurnReport, mutated: TurnReport): { what: string; expectation: string }[] {
  const [before, after] = [baseline.stored?.steps ?? {}, mutated.stored?.steps ?? {}];
  const differences: { what: string; expectation: string }[] = [];
  for (const step of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, is] = [before[step] ?? {}, after[step] ?? {}];
    for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
      if (isDeepStrictEqual(was[key], is[key])) continue;
      const expectation = `"expectState": { ${json(step)}: { ${json(key)}: ${json(was[key])} } }`;
      if (!(key in was))
        differences.push({
          what: `${step}.${key} saved as ${json(is[key])}, which the unmutated run never saved`,
          expectation: `a check that ${step}.${key} stays unsaved (expectState matches only what it names)`,
        });
      else if (!(key in is))
        differences.push({ what: `${step}.${key} not saved (the unmutated run saved ${json(was[key])})`, expectation });
      else
        differences.push({
          what: `${step}.${key} saved as ${json(is[key])} instead of ${json(was[key])}`,
          expectation,
        });
    }
  }
  return differences;
}

/** A play's answers without its session's id: each play starts its own session, so the id differs by nature. */
function answersOf(play: StrengthPlay): Map<number, string> {
  const session = play.final?.stored?.id ?? play.turns.find((turn) => turn.stored)?.stored?.id;
  const answers = new Map<number, string>();
  for (const turn of play.turns)
    answers.set(turn.number, session ? (turn.answer ?? "").replaceAll(session, "<session>") : (turn.answer ?? ""));
  return answers;
}

function turnDifferences(
  baseline: TurnReport,
  mutated: TurnReport,
  answers: { was: string; is: string },
): { what: string; expectation: string }[] {
  const differences = stateDifferences(baseline, mutated);
  const [was, is] = [baseline.stored, mutated.stored];
  if (was && is && was.flow.currentStep !== is.flow.currentStep)
    differences.push({
      what: `the flow was at ${is.flow.currentStep} instead of ${was.flow.currentStep}`,
      expectation: `"expectedActiveStep": ${json(was.flow.currentStep)}`,
    });
  if (was && is && was.runStatus !== is.runStatus)
    differences.push({
      what: `the run was ${is.runStatus} instead of ${was.runStatus}`,
      expectation: `"completed": ${was.runStatus === "completed"}`,
    });
  if (was && is && !isDeepStrictEqual(was.children, is.children))
    differences.push({
      what:
        is.children.length === was.children.length
          ? "a child run's state or status differed"
          : `${is.children.length} child runs instead of ${was.children.length}`,
      expectation: `"finalChildren" naming the child runs as the unmutated run left them`,
    });
  const csv = [baseline, mutated].every((turn) => turn.response && mediaTypeOf(turn.response.headers) === "text/csv");
  if (answers.was !== answers.is && csv) differences.push(csvDifference(answers.was, answers.is));
  else if (answers.was !== answers.is)
    differences.push({
      what: `the answer was ${json(answers.is)} instead of ${json(answers.was)}`,
      expectation: `"responseMustInclude": [${json(distinctivePhrase(answers.was, answers.is))}]`,
    });
  return differences;
}

/**
 * Where a mutated play's turns stored or answered something other than the unmutated play's,
 * each difference named at the first turn it shows (a value left unsaved stays so after it).
 */
export function playDifferences(baseline: StrengthPlay, mutated: StrengthPlay): PlayDifference[] {
  const seen = new Set<string>();
  const differences: PlayDifference[] = [];
  const [wasAnswers, isAnswers] = [answersOf(baseline), answersOf(mutated)];
  for (const turn of mutated.turns) {
    const was = baseline.turns.find((candidate) => candidate.number === turn.number);
    if (!was) continue;
    const answers = { was: wasAnswers.get(turn.number) ?? "", is: isAnswers.get(turn.number) ?? "" };
    for (const { what, expectation } of turnDifferences(was, turn, answers)) {
      if (seen.has(what)) continue;
      seen.add(what);
      differences.push({ scenario: mutated.scenario, turn: turn.number, label: turn.label, what, expectation });
    }
  }
  return differences;
}
