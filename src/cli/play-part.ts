import type { TestEvent } from "node:test/reporters";
import { withRun } from "../testing/report/current-run.ts";
import type { RunEvent } from "../testing/report/run-event.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { playSpecs, plannedRunOf, type Plan, type RunSettings } from "./play-specs.ts";
import { moduleSpecifier } from "./run-arguments.ts";
import { toWire } from "./test-event-wire.ts";

/** What the process that plans a run asks of a process that plays a part of it. */
export interface PartOrder {
  /**
   * The run's settings as the command resolved them once: the command line, the environment, its
   * configuration and flowcheck.config.json's targets. This process reads none of its own.
   */
  readonly settings: RunSettings;
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
 * Writes nothing but the logs of the apps it starts: the process that reports the run writes its
 * results, page and transcripts.
 */
export async function playPart(order: PartOrder, send: (message: PartMessage) => void): Promise<boolean> {
  const { settings, plan } = order;
  const { request } = settings;
  for (const module of request.imports) await import(moduleSpecifier(module));
  // Each worker starts the apps its own scenarios use: a started app serves this process's conversations.
  const run = plannedRunOf(settings, plan, new ScenarioCatalog(), `worker-${process.pid}`);
  const told = (async () => {
    for await (const event of run.record.reader()) if (event.type !== "run:end") send({ kind: "run", event });
  })();
  let passed: boolean;
  try {
    passed = await withRun(run, () =>
      playSpecs(plan.files, request, run, async (events) => {
        for await (const event of events) send({ kind: "test", event: toWire(event) });
      }),
    );
  } finally {
    await run.startedApps.closeAll();
  }
  run.record.close();
  run.record.end({ endedAt: new Date().toISOString(), passed });
  await told;
  return passed;
}
