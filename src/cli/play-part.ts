import type { TestEvent } from "node:test/reporters";
import { derivedConfig } from "../config.ts";
import { withRun } from "../testing/report/current-run.ts";
import type { RunEvent } from "../testing/report/run-event.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { loadTargetConfig } from "../testing/target/target-config.ts";
import { playSpecs, plannedRunOf, type Plan } from "./play-specs.ts";
import { moduleSpecifier, type RunRequest } from "./run-arguments.ts";
import { toWire } from "./test-event-wire.ts";

/** What the process that plans a run asks of a process that plays a part of it. */
export interface PartOrder {
  readonly request: RunRequest;
  /** The run's environment, read once by the command: this process reads none of its own. */
  readonly environment: Readonly<Record<string, string>>;
  /** The run's plan, `files` this part's spec files. */
  readonly plan: Plan;
}

/** What a part tells the process that reports the run, in order; `done` last, once it has played. */
export type PartMessage =
  | { kind: "test"; event: TestEvent }
  | { kind: "run"; event: RunEvent }
  | { kind: "done"; passed: boolean };

/**
 * Plays the spec files `order` names in this process, as the run that ordered them planned it: its
 * node:test events and its run events each handed to `send`, then whether every test passed.
 * Writes nothing: the process that reports the run writes its results, page and transcripts.
 */
export async function playPart(order: PartOrder, send: (message: PartMessage) => void): Promise<boolean> {
  const { request, environment, plan } = order;
  for (const module of request.imports) await import(moduleSpecifier(module));
  const settings = {
    request,
    environment,
    config: derivedConfig(environment),
    targets: loadTargetConfig(process.cwd(), environment),
  };
  const run = plannedRunOf(settings, plan, new ScenarioCatalog());
  const told = (async () => {
    for await (const event of run.record.reader()) if (event.type !== "run:end") send({ kind: "run", event });
  })();
  const passed = await withRun(run, () =>
    playSpecs(plan.files, request, run, async (events) => {
      for await (const event of events) send({ kind: "test", event: toWire(event) });
    }),
  );
  run.record.close();
  run.record.end({ endedAt: new Date().toISOString(), passed });
  await told;
  return passed;
}
