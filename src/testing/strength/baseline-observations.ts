import type { ExecutionEntry } from "../../engine/session-document.ts";
import { mediaTypeOf } from "../answer/read-answer.ts";
import type { StrengthPlay } from "./strength-play.ts";

/** What one tool of one step did over the unmutated runs, and which scenarios ran it. */
export interface ToolObservation {
  flow: string;
  step: string;
  tool: string;
  /** The keys of its step's state its calls added or changed, as the execution log has them. */
  keys: string[];
  outcomes: ("stay" | "advance" | "complete")[];
  /** The steps its `advance` went to. */
  advancedTo: string[];
  scenarios: string[];
}

/** A place a step hands over from (`advance`), or starts a child run from. */
export interface PlaceObservation {
  flow: string;
  step: string;
  scenarios: string[];
}

export interface ChildObservation extends PlaceObservation {
  child: string;
}

/** A flow's answers in one media type other than JSON: a renderer's (`text/csv`) or the event stream. */
export interface AnswerShapeObservation {
  flow: string;
  mediaType: string;
  scenarios: string[];
}

/** What the scenarios' unmutated runs did, place by place, in the order they first did it. */
export interface BaselineObservations {
  tools: ToolObservation[];
  handoffs: PlaceObservation[];
  children: ChildObservation[];
  /** The shapes other than JSON the turns' answers came in. */
  shapes: AnswerShapeObservation[];
}

/** One run's log: the session's own, or a child run's. */
interface RunLog {
  flow: string;
  execution: readonly ExecutionEntry[];
}

function runLogsOf(play: StrengthPlay): RunLog[] {
  const stored = play.final?.stored;
  if (!stored) return [];
  return [
    { flow: stored.flow.name, execution: stored.execution },
    ...stored.children.map((child) => ({ flow: child.flow, execution: child.execution })),
  ];
}

function addTo<T>(list: T[], value: T): void {
  if (!list.includes(value)) list.push(value);
}

function placeIn<T extends { scenarios: string[] }>(
  places: Map<string, T>,
  key: string,
  make: () => T,
  scenario: string,
): T {
  let place = places.get(key);
  if (!place) places.set(key, (place = make()));
  addTo(place.scenarios, scenario);
  return place;
}

/** The media types other than JSON the play's answers came in: only a turn that asked for one and got it ran that shape. */
function shapesOf(play: StrengthPlay, shapes: Map<string, AnswerShapeObservation>): void {
  const flow = play.final?.stored?.flow.name;
  if (!flow) return;
  for (const turn of play.turns) {
    const mediaType = turn.response ? mediaTypeOf(turn.response.headers) : "";
    if (mediaType === "" || mediaType === "application/json") continue;
    const make = () => ({ flow, mediaType, scenarios: [] });
    placeIn(shapes, `${flow}/${mediaType}`, make, play.scenario);
  }
}

/** Every tool, hand-off, child run and answer shape the passing unmutated `plays` went through. */
export function baselineObservations(plays: readonly StrengthPlay[]): BaselineObservations {
  const tools = new Map<string, ToolObservation>();
  const handoffs = new Map<string, PlaceObservation>();
  const children = new Map<string, ChildObservation>();
  const shapes = new Map<string, AnswerShapeObservation>();
  for (const play of plays) {
    shapesOf(play, shapes);
    for (const run of runLogsOf(play)) {
      for (const entry of run.execution) {
        const { flow } = run;
        const { step } = entry;
        if (entry.kind === "child") {
          const make = () => ({ flow, step, child: entry.name, scenarios: [] });
          placeIn(children, `${flow}/${step}/${entry.name}`, make, play.scenario);
          continue;
        }
        const outcome = entry.outcome;
        if (outcome !== "stay" && outcome !== "advance" && outcome !== "complete") continue;
        const make = () => ({ flow, step, tool: entry.name, keys: [], outcomes: [], advancedTo: [], scenarios: [] });
        const tool = placeIn(tools, `${flow}/${step}/${entry.name}`, make, play.scenario);
        addTo(tool.outcomes, outcome);
        for (const key of entry.wrote ?? []) addTo(tool.keys, key);
        if (outcome === "advance" && entry.to) {
          addTo(tool.advancedTo, entry.to);
          placeIn(handoffs, `${flow}/${step}`, () => ({ flow, step, scenarios: [] }), play.scenario);
        }
      }
    }
  }
  return {
    tools: [...tools.values()],
    handoffs: [...handoffs.values()],
    children: [...children.values()],
    shapes: [...shapes.values()],
  };
}
