/**
 * One change to one behaviour of a flow, made to a copy of its definition before the app is built
 * (no source is touched), so a scenario suite can be asked whether it notices: `flowcheck strength`
 * plays the scenarios against each mutant and reports the ones no check caught.
 *
 * Every mutant names where it applies: the flow (a child flow by its own name), the step, and for
 * the changes to a tool's effect, the tool; a change to an answer's shape names the flow alone,
 * since a renderer and the event stream are the flow's, not a step's. `mutatedFlow` makes the
 * changed definition; the event stream is altered by a wrapper around the app's handler
 * (`alteredStreamHandler`).
 */
export type Mutant = ToolMutant | HandoffMutant | ChildMutant | RenderMutant;

interface FlowPlace {
  /** Stable across runs, e.g. `BasicFlow/NameStep/save_name: drop state.name`. */
  id: string;
  flow: string;
}

interface MutantPlace extends FlowPlace {
  step: string;
}

/** A change to what one tool does: its state write, or the result it returns. */
export interface ToolMutant extends MutantPlace {
  tool: string;
  change:
    | { kind: "drop-write"; key: string }
    | { kind: "change-value"; key: string }
    | { kind: "advance-to-stay" }
    | { kind: "stay-to-advance"; to: string }
    | { kind: "advance-elsewhere"; to: string }
    | { kind: "withhold-complete" };
}

/** The hand-off message an `advance` from `step` leaves for the next step's model, dropped. */
export interface HandoffMutant extends MutantPlace {
  change: { kind: "drop-handoff" };
}

/** A child run that `step` starts: skipped (it never runs), or its output dropped. */
export interface ChildMutant extends MutantPlace {
  child: string;
  change: { kind: "skip-child" } | { kind: "drop-child-output" };
}

/**
 * An answer in another shape than JSON altered after it was made, the session left as it is: the
 * flow's `mediaType` rendering (`alteredRendering` says how), wherever it is answered (a turn's
 * answer, `GET /ai/sessions/:id`); or its event stream, whose last `token` event is dropped, so
 * the tokens no longer spell the `done` event's response.
 */
export interface RenderMutant extends FlowPlace {
  change: { kind: "alter-render"; mediaType: string } | { kind: "alter-stream" };
}

/**
 * A saved value changed the way a slip would change it: a number by one, a string altered, a
 * boolean flipped, an array's last item dropped, an object's first key's value changed; `null`
 * becomes `"mutant"`. Deterministic, so a mutant's runs agree.
 */
export function changedValue(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "string") return value === "" ? "mutant" : `${value}·`;
  if (typeof value === "boolean") return !value;
  if (Array.isArray(value)) return value.slice(0, -1);
  if (value !== null && typeof value === "object") {
    const [first] = Object.keys(value);
    if (first === undefined) return { mutant: true };
    return { ...(value as Record<string, unknown>), [first]: changedValue((value as Record<string, unknown>)[first]) };
  }
  return "mutant";
}
