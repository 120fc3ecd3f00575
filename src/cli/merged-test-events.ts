import { Readable } from "node:stream";
import type { TestEvent } from "node:test/reporters";

// What node:test's root tells once its tests are done, counted for one process: merged, they are
// told once, for the run.
const COUNTS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo"] as const;
const COUNT = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;

type Summary = Extract<TestEvent, { type: "test:summary" }>["data"];

/** What one process's stream ends with once its last top-level test is told. */
interface Tail {
  events: TestEvent[];
  counts: Map<string, number>;
  summary: Summary | undefined;
}

type Diagnostic = Extract<TestEvent, { type: "test:diagnostic" }>;

const isRootCount = (event: TestEvent): event is Diagnostic =>
  event.type === "test:diagnostic" &&
  event.data.nesting === 0 &&
  event.data.file === undefined &&
  COUNT.test(event.data.message);

/** The top-level test whose report `event` ends: its pass or its failure, at nesting 0. */
const endsTopLevel = (event: TestEvent): boolean =>
  (event.type === "test:pass" || event.type === "test:fail") && event.data.nesting === 0;

/**
 * The node:test events of several processes, each playing some of a run's spec files, as the
 * events of one run, for node:test's reporters: each top-level test's events stay together (the
 * spec reporter nests what follows a start under it), in the order the top-level tests end, numbered
 * again from 1; the counts each root tells at its end (`ℹ tests 1686`, the plan, the summary) told
 * once, added up, after every process's last test; a run that took as long as its longest process.
 */
export function mergedTestEvents(sources: readonly AsyncIterable<TestEvent>[]): Readable {
  return Readable.from(merge(sources), { objectMode: true });
}

async function* merge(sources: readonly AsyncIterable<TestEvent>[]): AsyncGenerator<TestEvent> {
  const ready: TestEvent[][] = [];
  let wake: (() => void) | undefined;
  const tails: Tail[] = [];
  const pumps = sources.map(async (source) => {
    let held: TestEvent[] = [];
    for await (const event of source) {
      held.push(event);
      if (!endsTopLevel(event)) continue;
      ready.push(held);
      held = [];
      wake?.();
    }
    tails.push(tailOf(held));
  });
  let pumping = true;
  const done = Promise.all(pumps).finally(() => {
    pumping = false;
    wake?.();
  });
  let topLevel = 0;
  while (pumping || ready.length) {
    const group = ready.shift();
    if (!group) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      continue;
    }
    for (const event of group) yield endsTopLevel(event) ? renumbered(event, topLevel + 1) : event;
    topLevel += 1;
  }
  await done;
  yield* joinedTail(tails, topLevel);
}

function renumbered(event: TestEvent, testNumber: number): TestEvent {
  return { ...event, data: { ...event.data, testNumber } } as TestEvent;
}

function tailOf(events: readonly TestEvent[]): Tail {
  const tail: Tail = { events: [], counts: new Map(), summary: undefined };
  for (const event of events) {
    // The run's plan is told once, counting every process's top-level tests.
    if (event.type === "test:plan" && event.data.nesting === 0 && event.data.file === undefined) continue;
    if (isRootCount(event)) {
      const [, key = "", value = "0"] = COUNT.exec(event.data.message) ?? [];
      tail.counts.set(key, Number(value));
    } else if (event.type === "test:summary" && event.data.file === undefined) tail.summary = event.data;
    else tail.events.push(event);
  }
  return tail;
}

/** The processes' tails told as one: what else they held, then the plan, the counts and the summary of the whole run. */
function* joinedTail(tails: readonly Tail[], topLevel: number): Generator<TestEvent> {
  for (const tail of tails) yield* tail.events;
  yield { type: "test:plan", data: { nesting: 0, count: topLevel } } as TestEvent;
  const sum = (key: string) => tails.reduce((total, tail) => total + (tail.counts.get(key) ?? 0), 0);
  for (const key of COUNTS) yield diagnostic(`${key} ${sum(key)}`);
  const longest = Math.max(0, ...tails.map((tail) => tail.counts.get("duration_ms") ?? 0));
  yield diagnostic(`duration_ms ${longest}`);
  const summaries = tails.flatMap((tail) => (tail.summary ? [tail.summary] : []));
  const counts = Object.fromEntries(
    Object.keys(summaries[0]?.counts ?? {}).map((key) => [
      key,
      summaries.reduce(
        (total, summary) => total + ((summary.counts as unknown as Record<string, number>)[key] ?? 0),
        0,
      ),
    ]),
  );
  yield {
    type: "test:summary",
    data: {
      counts,
      duration_ms: Math.max(0, ...summaries.map((summary) => summary.duration_ms)),
      file: undefined,
      success: summaries.length === tails.length && summaries.every((summary) => summary.success),
    },
  } as TestEvent;
}

function diagnostic(message: string): TestEvent {
  return { type: "test:diagnostic", data: { nesting: 0, message, level: "info" } } as TestEvent;
}
