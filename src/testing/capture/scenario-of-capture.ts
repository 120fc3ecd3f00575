import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";
import type { CapturedConversation, CapturedTurn } from "./capture-conversation.ts";

export interface CaptureDescription {
  flowName: string;
  description: string;
  /** The pins the conversation was held under, such as the flow's clock. */
  env: Record<string, string>;
  /** Where `scenario.schema.json` is from the scenario's folder. */
  schema: string;
}

/** The state keys the turn added or changed, at their new values: what a partial match can hold it to. */
function changedState(turn: CapturedTurn): ScenarioTurn["expectState"] {
  const expected: NonNullable<ScenarioTurn["expectState"]> = {};
  for (const [step, change] of Object.entries(turn.change.state ?? {})) {
    const keys = [...Object.keys(change.added ?? {}), ...Object.keys(change.changed ?? {})];
    if (keys.length) expected[step] = Object.fromEntries(keys.map((key) => [key, turn.head.steps[step]?.[key]]));
  }
  return Object.keys(expected).length ? expected : undefined;
}

function turnOf(turn: CapturedTurn, index: number): ScenarioTurn {
  const expectState = changedState(turn);
  return {
    label: `turn ${index + 1}`,
    input: turn.input,
    expectedActiveStep: turn.head.flow.currentStep,
    completed: turn.head.runStatus === "completed",
    ...(expectState ? { expectState } : {}),
  };
}

/**
 * The scenario a captured conversation proves, written as a person would: each turn's input, the
 * step and run status it left, and the state it changed; then the whole final state and the nested
 * runs. Answers are not held to their words, so the scenario also passes with a live model that
 * words them otherwise.
 */
export function scenarioOfCapture(captured: CapturedConversation, about: CaptureDescription): Scenario {
  const { document } = captured;
  return {
    $schema: about.schema,
    flowName: about.flowName,
    description: about.description,
    ...(Object.keys(about.env).length ? { env: about.env } : {}),
    turns: captured.turns.map(turnOf),
    finalState: document.steps,
    ...(document.children.length
      ? {
          finalChildren: document.children.map(({ flow, parentStep, runStatus, currentStep, steps }) => ({
            flow,
            parentStep,
            runStatus,
            currentStep,
            steps,
          })),
        }
      : {}),
  };
}
