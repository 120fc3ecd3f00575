import type { ScenarioTarget } from "../target/scenario-target.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { RunOptions } from "./run-options.ts";
import type { ScenarioEvent } from "./scenario-event.ts";
import { ScenarioRun } from "./scenario-run.ts";

/** Plays a whole scenario, skipping the turns after a failed one, and yields its events. */
export async function* runScenario(
  loaded: LoadedScenario,
  target: ScenarioTarget,
  options: RunOptions = {},
): AsyncGenerator<ScenarioEvent> {
  const run = new ScenarioRun(loaded, target, options);
  const queue: ScenarioEvent[] = [];
  run.on((event) => queue.push(event));
  const drain = function* () {
    while (queue.length) yield queue.shift()!;
  };
  let ended = false;
  try {
    run.start();
    yield* drain();
    for (let index = 0; index < loaded.scenario.turns.length; index++) {
      await run.turn(index);
      yield* drain();
    }
    await run.complete();
    run.end();
    ended = true;
    yield* drain();
  } finally {
    // A caller that stops iterating early still gets the connection closed.
    if (!ended) run.end();
  }
}
