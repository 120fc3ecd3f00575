import type { LanggraphGraphEntry } from "../target-config.ts";
import type { LanggraphGraphEntry as ViewPointers } from "./langgraph-turn-view.ts";

/**
 * A config's graph entry as `langgraphTurnView` reads it: the config's pointers are into the
 * thread's values (`/step`), the view's into the whole thread state (`/values/step`).
 */
export function langgraphGraphPointers(entry: LanggraphGraphEntry | undefined): ViewPointers | undefined {
  if (!entry) return undefined;
  return {
    ...(entry.step === undefined ? {} : { step: `/values${entry.step}` }),
    ...(entry.completed === undefined ? {} : { completed: `/values${entry.completed}` }),
    ...(entry.steps === undefined ? {} : { steps: [...entry.steps] }),
  };
}
