import type { CapturedTurn } from "./capture-conversation.ts";

const show = (value: unknown) => JSON.stringify(value);

/** What the turn changed in each step's state, one `Step.key` each. */
function stateLines(turn: CapturedTurn): string[] {
  return Object.entries(turn.change.state ?? {}).flatMap(([step, change]) => [
    ...Object.entries(change.added ?? {}).map(([key, value]) => `${step}.${key} = ${show(value)}`),
    ...Object.entries(change.changed ?? {}).map(([key, { from, to }]) => `${step}.${key}: ${show(from)} → ${show(to)}`),
    ...(change.removed ?? []).map((key) => `${step}.${key} removed`),
  ]);
}

/**
 * A turn for the terminal: the answer, then the step and run status it left (with where they came
 * from when they moved), what it changed in the state and the nested runs it started.
 */
export function describeTurn(flowName: string, turn: CapturedTurn): string {
  const { change, head } = turn;
  const step = change.step?.from
    ? `step ${change.step.from} → ${head.flow.currentStep}`
    : `step ${head.flow.currentStep}`;
  const status = change.runStatus?.from ? `${change.runStatus.from} → ${head.runStatus}` : head.runStatus;
  const state = stateLines(turn);
  const children = (change.children ?? []).map(
    (child) => `ran ${child.flow} from ${child.parentStep}: ${child.runStatus}`,
  );
  return [
    `${flowName}> ${turn.response}`,
    `  ${step} · ${status}`,
    ...(state.length ? state.map((line) => `  ${line}`) : ["  state unchanged"]),
    ...children.map((line) => `  ${line}`),
  ].join("\n");
}
