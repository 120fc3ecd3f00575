import { spawn } from "node:child_process";
import { on, once } from "node:events";
import { resolve } from "node:path";
import type { TestEvent } from "node:test/reporters";
import type { RunRecord } from "../testing/report/run-record.ts";
import type { PartMessage, PartOrder } from "./play-part.ts";
import { fromWire } from "./test-event-wire.ts";

/** The worker's entry, in src/ as in the package's build. */
const ENTRY = resolve(import.meta.dirname, "spec-worker.mjs");

/** A process playing a part of the run: its node:test events, and once they have ended, whether every test passed. */
export interface SpecWorker {
  readonly events: AsyncIterable<TestEvent>;
  passed(): boolean;
}

/**
 * Starts a process that plays the spec files `order` names, as this run planned them: its run
 * events go into `record` as they come, its node:test events to whoever reads `events`. A process
 * that ends before it has told its last test is told as a failed test of its own, naming its files.
 */
export function startSpecWorker(order: PartOrder, record: RunRecord): SpecWorker {
  // The same node and flags as this process: tsx's hooks, Node 22's test filters (flowcheck.mjs).
  const child = spawn(process.execPath, [...process.execArgv, ENTRY], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  child.send(order);
  // Listening from now: a message that came before the run reads the events is kept for it.
  const messages = on(child, "message", { close: ["disconnect"] }) as AsyncIterable<[PartMessage]>;
  let passed: boolean | undefined;
  async function* events(): AsyncGenerator<TestEvent> {
    for await (const [message] of messages) {
      if (message.kind === "test") yield fromWire(message.event);
      else if (message.kind === "run") record.emit(message.event);
      else passed = message.passed;
    }
    const [code, signal] = await exited;
    if (passed === undefined)
      yield* endedEarly(order.plan.files, signal ? `was killed by ${signal}` : `exited with code ${code}`);
  }
  return { events: events(), passed: () => passed === true };
}

/** A failed top-level test, and the counts of a run of it alone, for a worker that ended before its run did. */
function endedEarly(files: readonly string[], how: string): TestEvent[] {
  const name = `flowcheck test --workers: the process playing ${files.length} of the spec files ${how} before it had told all its tests`;
  const error = new Error(
    `${name}: ${files.join(", ")}. Its own output above says why; run those files without --workers to see where they stop.`,
  );
  const counts = { tests: 1, suites: 0, passed: 0, failed: 1, cancelled: 0, skipped: 0, todo: 0, topLevel: 1 };
  return [
    { type: "test:start", data: { name, nesting: 0 } },
    { type: "test:fail", data: { name, nesting: 0, testNumber: 1, details: { duration_ms: 0, error } } },
    ...["tests 1", "fail 1"].map((message) => ({
      type: "test:diagnostic" as const,
      data: { nesting: 0, message, level: "info" as const },
    })),
    { type: "test:summary", data: { counts, duration_ms: 0, file: undefined, success: false } },
  ] as TestEvent[];
}
