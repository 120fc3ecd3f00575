// npm run bench (tsx test/bench/bench.ts): what a turn checked by the runner costs next to the
// floor, and whether that cost stays flat as a conversation grows. Not a test: nothing here asserts
// a timing. One process, one run, under two minutes on a 2-core machine (the main job and the report
// page after them); it writes test/bench/results.json and removes everything else it makes.
//
//   floor   bare node:http POSTs on one keep-alive connection, each answered after one SQLite upsert
//           of a ~2 KB document and one read by key;
//   stack   BasicFlow conversations through ScenarioRun (every check on), sequential and 8 at once;
//   growth  200-turn conversations on a step that stays, turns 1–10 against 191–200;
//   runner  a 2000-turn scenario played by the real runner under node:test, as a child process,
//           and the same command over as many empty tests: node:test's own share;
//   startup `npm run test:flows -- scenarios/basic-flow.scenario.json` from command to exit,
//           beside the previous commit's figure timed in turn with it (test/bench/startup.ts);
//   mainjob `npm run test:flows`, every flow suite, from command to exit (test/bench/main-job.ts),
//   strength `npm run test:strength`, every scenario against every mutant, the same way,
//           after the two minutes the phases above keep within;
//   report  the HTML page of a 2000-turn run, from its file to DOMContentLoaded in headless
//           Chromium (test/bench/report-page.ts), after the two minutes the others keep within;
//           without a Chromium it is skipped, saying why;
//   langgraph a chat graph of the LangGraph fixture project on the real dev server, played turn by
//           turn by ScenarioRun: each turn's wall less the time its requests waited on the server,
//           flowcheck's own cost (test/bench/langgraph-turns.ts), beside the engine's; without the
//           fixture project installed it is skipped, saying why;
//   seamcalls the model seam in this process: a keep-alive fetch's scripted Chat Completions and
//           Responses calls, streamed and not, each credited to a turn in flight, from request to
//           the answer's last byte, beside a bare round trip (test/bench/seam-calls.ts), after the
//           two minutes the others keep within, as is the next;
//   seamconversation a 20-turn scenario against the AI SDK fixture's booking chat on its in-process
//           mock model and on its OpenAI provider served at the seam, in alternating pairs
//           (test/bench/seam-conversation.ts); without the fixture project installed it is skipped;
//   suite   `npm test`, the whole suite, from command to exit, in this tree and in another commit's
//           (a clone of it, its node_modules linked to this tree's where the lockfiles are the same,
//           else installed with npm ci), the runs alternating: the ref's, this tree's, this tree's,
//           the ref's (test/bench/suite.ts). About half an hour, so only --only=suite runs it; a run
//           that fails stops the bench with its exit code and last lines.
//
// Options (after `npm run bench --`):
//   --only=floor,stack,growth,runner,startup,mainjob,strength,report,langgraph,seamcalls,
//          seamconversation,suite     runs some
//                                     phases; results.json is then left as it was, since it must
//                                     always describe one whole run, but for the `suite` section,
//                                     which suite writes (as `npm run bench:live` writes `live`):
//                                     suiteMillis (this tree's median), suiteRefMillis, suiteRatio
//                                     (this tree's over the ref's) and every run; a whole run keeps it;
//   --startup-ref=<ref>               the commit startup is compared with (default HEAD~1);
//   --suite-ref=<ref>                 the commit suite is compared with (default HEAD~1);
//   --suite-rounds=<n>                suite's pairs of runs, each pair in the other order (default 2);
//   --profile=<dir>                   writes a .cpuprofile per timed part (warm-ups and start-up left
//                                     out, which `node --cpu-prof` cannot do), the runner's children
//                                     included; `tsx test/bench/profile-summary.ts <file>` sums one
//                                     up. Profiling slows everything, so results.json is left alone.
import { execFileSync, spawn } from "node:child_process";
import { Session } from "node:inspector/promises";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { join, relative, resolve, sep } from "node:path";
import Database from "better-sqlite3";
import { loadScenario } from "../../src/testing/scenario/load-scenario.ts";
import type { LoadedScenario, Scenario, ScenarioTurn } from "../../src/testing/scenario/scenario.ts";
import { SCRATCH_SETTINGS } from "../../src/store/sqlite/sqlite-session-store.ts";
import { ScenarioRun } from "../../src/testing/run/scenario-run.ts";
import { startScenarioTarget, type ScenarioTarget } from "../../src/testing/target/scenario-target.ts";
import { BasicFlow, basicFlowEntry } from "../fixtures/flows/index.ts";
import { fixtureScenario } from "../support/fixture-scenario.ts";
import { NO_CHROMIUM } from "../support/headless-chromium.ts";
import { MAIN_JOB_COMMAND, measureJob, STRENGTH_COMMAND } from "./main-job.ts";
import { measureLanggraphTurns, type LanggraphTurnsResult } from "./langgraph-turns.ts";
import { measureSeamCalls, type SeamCallsResult } from "./seam-calls.ts";
import { measureSeamConversation, type SeamConversationResult } from "./seam-conversation.ts";
import { measureReportPage, REPORT_TURNS, type ReportPageResult } from "./report-page.ts";
import { measureStartup, STARTUP_COMMAND, type Spread, type StartupResult } from "./startup.ts";
import { measureSuite, SuiteRunFailed, type SuiteResult } from "./suite.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const RESULTS = join(ROOT, "test", "bench", "results.json");

// Sizes: enough samples for a stable mean and a p99 with at least ~20 samples above it, small
// enough that the whole run stays well under two minutes on a 2-core machine. Both the floor and
// the stack are timed once V8 has compiled their hot code: a turn through the whole stack costs
// about twice as much over its first thousand turns in a process as after them (measured here),
// so the stack warms up for 200 conversations (1,200 turns) and growth for six of its 200-turn
// conversations, as the floor does for 3,000 round trips.
const FLOOR = { warmup: 3000, rounds: 20000 };
const STACK = { warmupConversations: 200, conversations: 400, concurrency: 8, concurrentConversations: 400 };
// The floor and the sequential stack are timed in this many alternating blocks (see measureFloorAndStack):
// short blocks pair each stack block with a floor block timed moments before it.
const BLOCKS = 20;
const GROWTH = { turns: 200, window: 10, warmupConversations: 6, conversations: 9 };
const RUNNER = { short: 20, long: 2000 };
// The whole bench must end within two minutes: the long runner gets what is left of this, less a
// margin for cleaning up, and a run cut short is reported as a lower bound.
const BUDGET_MILLIS = 112_000;

const PHASES = [
  "floor",
  "stack",
  "growth",
  "runner",
  "startup",
  "mainjob",
  "strength",
  "report",
  "langgraph",
  "seamcalls",
  "seamconversation",
] as const;
// What a user waits for from `npm run test:flows -- <scenario>` to its exit: the target.
const STARTUP_TARGET_MILLIS = 1000;
// What a user waits for from `npm run test:flows`, run after every change, to its exit: the target.
const MAIN_JOB_TARGET_MILLIS = 5000;
const MAIN_JOB_RUNS = 3;
// What a pull request's CI waits for from `npm run test:strength` on the demo flows: the target.
const STRENGTH_TARGET_MILLIS = 60_000;
// Each run is some seconds: two after the uncounted one keep the bench near its two minutes.
const STRENGTH_RUNS = 2;
// What a reader waits for the page of a 2000-turn run to open: the target.
const REPORT_TARGET_MILLIS = 1000;
// What the seam may add to a scripted model call, and to a conversation against an app whose model it serves.
const SEAM_CALL_TARGET_MILLIS = 1;
const SEAM_CONVERSATION_TARGET_RATIO = 1.3;
// Phases a whole run leaves out, for the time they take: only --only runs them.
const ON_REQUEST = ["suite"] as const;
const SUITE_ROUNDS = 2;
type Phase = (typeof PHASES)[number] | (typeof ON_REQUEST)[number];

function phasesToRun(argv: string[]): Set<Phase> {
  const only = argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  if (only === undefined) return new Set(PHASES);
  const known: readonly string[] = [...PHASES, ...ON_REQUEST];
  const wanted = only.split(",").map((name) => name.trim());
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length)
    throw new Error(`bench: unknown phase ${unknown.join(", ")}; the phases are ${known.join(", ")}.`);
  return new Set(wanted as Phase[]);
}

/** `--<name>=<value>`'s value, or `fallback`. */
function option(argv: string[], name: string, fallback: string): string {
  return argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(`--${name}=`.length) ?? fallback;
}

function suiteRounds(argv: string[]): number {
  const value = option(argv, "suite-rounds", String(SUITE_ROUNDS));
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`bench: --suite-rounds takes a whole number of pairs of runs, 1 or more; got ${value}.`);
  return rounds;
}

/** results.json as the last run left it, or nothing when there is none. */
function readResults(): Record<string, unknown> {
  return existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function summary(millis: number[]): { meanMicros: number; p50Micros: number; p99Micros: number } {
  const sorted = [...millis].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    meanMicros: (total / sorted.length) * 1000,
    p50Micros: percentile(sorted, 0.5) * 1000,
    p99Micros: percentile(sorted, 0.99) * 1000,
  };
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const nullableRound = (value: number | null) => (value === null ? null : round(value, 0));
const roundMillis = ({ min, median, max }: Spread): Spread => ({
  min: round(min, 0),
  median: round(median, 0),
  max: round(max, 0),
});

/** Everything the bench makes, undone in reverse order on the way out, whatever happened. */
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error(`bench: cleanup failed: ${(error as Error).message}`);
    }
  }
}

/** Samples the CPU of this process over one timed part at a time, when --profile asks for it. */
class PhaseProfiler {
  readonly dir: string;
  readonly #session = new Session();

  constructor(dir: string) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    this.#session.connect();
    cleanups.push(() => this.#session.disconnect());
  }

  async start(): Promise<void> {
    await this.#session.post("Profiler.enable");
    // 100 µs rather than the default 1 ms: a turn is about a millisecond.
    await this.#session.post("Profiler.setSamplingInterval", { interval: 100 });
    await this.#session.post("Profiler.start");
  }

  async stop(name: string): Promise<void> {
    const { profile } = await this.#session.post("Profiler.stop");
    await this.#session.post("Profiler.disable");
    const file = join(this.dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    process.stderr.write(`bench: wrote ${file}\n`);
  }
}

let profiler: PhaseProfiler | undefined;

// ---------------------------------------------------------------------------------------------
// The floor: what any JSON-over-HTTP turn with one persisted document must cost on this machine.

// The server does the least a real turn must: parse the request, write the session document
// (stringified, ~2 KB), read it back by key and parse it, answer with a small JSON body. The client
// parses the answer, as the runner does.
async function startFloor(dir: string): Promise<Timed> {
  const db = new Database(join(dir, "floor.sqlite"));
  cleanups.push(() => void (db.open && db.close()));
  // The settings of the runner's own store (the stack's), so the write costs what the store's does.
  for (const setting of SCRATCH_SETTINGS) db.pragma(setting);
  db.exec("CREATE TABLE documents (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
  const upsert = db.prepare<[string, string]>(
    "INSERT INTO documents (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
  );
  const select = db.prepare<[string], { body: string }>("SELECT body FROM documents WHERE id = ?");
  const notes = Array.from({ length: 28 }, (_, index) => ({
    role: index % 2 ? "assistant" : "user",
    content: `message ${index} of the conversation so far`,
  }));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        session: string;
        message: string;
        turn: number;
      };
      const document = {
        id: request.session,
        version: 1,
        turns: request.turn,
        flow: { name: "BasicFlow", currentStep: "NameStep" },
        last: request.message,
        memory: notes,
      };
      upsert.run(request.session, JSON.stringify(document));
      const stored = JSON.parse(select.get(request.session)!.body) as typeof document;
      const answer = JSON.stringify({
        success: true,
        session: stored.id,
        response: `turn ${stored.turns} saved`,
        currentStep: stored.flow.currentStep,
      });
      res.writeHead(200, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(answer),
      });
      res.end(answer);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  );
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(() => agent.destroy());
  const documentBytes = JSON.stringify({
    id: "5b0e8a3c-0000-4000-8000-000000000000",
    version: 1,
    turns: 1,
    flow: { name: "BasicFlow", currentStep: "NameStep" },
    last: "",
    memory: notes,
  }).length;
  if (documentBytes < 1800 || documentBytes > 2400)
    throw new Error(`bench: the floor's document is ${documentBytes} bytes, not ~2 KB`);

  const message =
    "I would like to know the weather in Los Angeles and New York City today, and then give you my address."
      .repeat(3)
      .slice(0, 228);
  const post = (turn: number): Promise<void> => {
    // A new session every six turns, like the BasicFlow conversations the stack plays.
    const session = `5b0e8a3c-0000-4000-8000-${String(Math.floor(turn / 6)).padStart(12, "0")}`;
    const body = JSON.stringify({ session, message, turn });
    return new Promise((done, fail) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/ai/chat",
          method: "POST",
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { success?: boolean };
            if (res.statusCode !== 200 || answer.success !== true)
              fail(new Error(`bench: the floor server answered ${res.statusCode}`));
            else done();
          });
        },
      );
      req.on("error", fail);
      req.end(body);
    });
  };
  const sampleBody = JSON.stringify({ session: "5b0e8a3c-0000-4000-8000-000000000000", message, turn: 1 });
  if (sampleBody.length < 280 || sampleBody.length > 320)
    throw new Error(`bench: the floor's request is ${sampleBody.length} bytes, not ~300`);

  let turn = 0;
  for (; turn < FLOOR.warmup; turn++) await post(turn);
  const times: number[] = [];
  return {
    times,
    block: async () => {
      const started = process.hrtime.bigint();
      for (let round = 0; round < FLOOR.rounds / BLOCKS; round++, turn++) {
        const before = performance.now();
        await post(turn);
        times.push(performance.now() - before);
      }
      return Number(process.hrtime.bigint() - started) / 1000 / (FLOOR.rounds / BLOCKS);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The full stack: the runner's own ScenarioRun against the app booted in this process.

async function target(loaded: LoadedScenario, dir: string): Promise<ScenarioTarget> {
  const started = await startScenarioTarget(loaded, { flows: [basicFlowEntry], scratchDir: dir });
  cleanups.push(() => started.close());
  return started;
}

/**
 * One whole conversation as the runner plays it: a fresh connection, every turn with its transport,
 * persisted and expectation checks, then the final checks. Pushes each turn's time to `turnMillis`.
 * A failed check stops the bench: numbers from a run that does not pass mean nothing.
 */
async function converse(
  loaded: LoadedScenario,
  on: ScenarioTarget,
  turnMillis?: number[],
  parts?: { http: number[]; store: number[] },
): Promise<number> {
  const run = new ScenarioRun(loaded, on);
  run.start();
  try {
    const turns = loaded.scenario.turns.length;
    for (let index = 0; index < turns; index++) {
      const before = performance.now();
      const report = await run.playTurn(index);
      turnMillis?.push(performance.now() - before);
      if (report.millis) {
        parts?.http.push(report.millis.http);
        parts?.store.push(report.millis.store);
      }
      if (report.outcome !== "passed") throw new Error(`bench: ${loaded.name}: ${report.failure ?? report.skipReason}`);
    }
    const final = await run.finish();
    if (final.outcome !== "passed") throw new Error(`bench: ${loaded.name}: ${final.failure ?? final.skipReason}`);
    return turns;
  } finally {
    run.end();
  }
}

interface FloorResult {
  /** The median of the blocks' µs per round trip. */
  micros: number;
  p50Micros: number;
  p99Micros: number;
}

interface StackResult {
  /** The median of the blocks' µs per turn, whole conversations (connection, final checks) included. */
  micros: number;
  turnMicros: number;
  /** Of a turn: the HTTP exchange (the server's whole turn included), and the runner's re-read of the session. */
  httpMicros: number;
  storeMicros: number;
  p50Micros: number;
  p99Micros: number;
  turnsPerSecond: number;
  concurrentP50Micros: number;
  concurrentP99Micros: number;
}

const BASIC_FLOW_SCENARIO = fixtureScenario("basic-flow");

/** The app with BasicFlow, warmed up; each block plays whole conversations one after another. */
async function startStack(
  dir: string,
): Promise<Timed & { on: ScenarioTarget; loaded: LoadedScenario; parts: { http: number[]; store: number[] } }> {
  const loaded = loadScenario(BASIC_FLOW_SCENARIO, [BasicFlow]);
  const on = await target(loaded, dir);
  for (let index = 0; index < STACK.warmupConversations; index++) await converse(loaded, on);
  const times: number[] = [];
  const parts = { http: [] as number[], store: [] as number[] };
  return {
    on,
    loaded,
    times,
    parts,
    block: async () => {
      let turns = 0;
      const started = process.hrtime.bigint();
      for (let index = 0; index < STACK.conversations / BLOCKS; index++)
        turns += await converse(loaded, on, times, parts);
      return Number(process.hrtime.bigint() - started) / 1000 / turns;
    },
  };
}

/** Eight sessions at once, each on its own connection, as eight scenario files would drive one server. */
async function measureConcurrent(
  loaded: LoadedScenario,
  on: ScenarioTarget,
): Promise<{ turnsPerSecond: number; p50Micros: number; p99Micros: number }> {
  const times: number[] = [];
  let next = 0;
  let turns = 0;
  const worker = async () => {
    while (next < STACK.concurrentConversations) {
      next++;
      // Not `turns += await …`: that reads the sum before the await and loses the other workers' turns.
      const played = await converse(loaded, on, times);
      turns += played;
    }
  };
  await profiler?.start();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: STACK.concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await profiler?.stop("stack-concurrent");
  const { p50Micros, p99Micros } = summary(times);
  return { turnsPerSecond: turns / seconds, p50Micros, p99Micros };
}

/** A timed part played in blocks: each call plays one block and returns its µs per turn. */
interface Timed {
  /** Every round trip's or turn's time, in ms, over all blocks. */
  times: number[];
  block(): Promise<number>;
}

/**
 * The floor and the stack block by block, one after the other, so that whatever else the machine
 * does in the meantime lands on both; each one's µs per turn is the median of its blocks, and
 * `ratios` holds each stack block's time over the floor block's just before it. This machine's
 * speed drifts by up to 2× within minutes, so a ratio of neighbouring blocks is steadier than a
 * ratio of two medians. A profiled run plays each part's blocks together, so each gets a profile
 * of its own, and has no ratios.
 */
async function measureFloorAndStack(
  floor: Timed | undefined,
  stack: Timed | undefined,
): Promise<{ floor?: number; stack?: number; ratios: number[] }> {
  const floorBlocks: number[] = [];
  const stackBlocks: number[] = [];
  if (profiler) {
    for (const [name, part, blocks] of [
      ["floor", floor, floorBlocks],
      ["stack-sequential", stack, stackBlocks],
    ] as const) {
      if (!part) continue;
      await profiler.start();
      for (let index = 0; index < BLOCKS; index++) blocks.push(await part.block());
      await profiler.stop(name);
    }
  } else {
    for (let index = 0; index < BLOCKS; index++) {
      if (floor) floorBlocks.push(await floor.block());
      if (stack) stackBlocks.push(await stack.block());
    }
  }
  const median = (values: number[]) =>
    values.length
      ? percentile(
          [...values].sort((a, b) => a - b),
          0.5,
        )
      : undefined;
  const ratios = profiler || !floor || !stack ? [] : stackBlocks.map((micros, index) => micros / floorBlocks[index]!);
  return { floor: median(floorBlocks), stack: median(stackBlocks), ratios };
}

// ---------------------------------------------------------------------------------------------
// Growth: a conversation that never leaves NameStep (a placeholder name, refused with `stay`), so
// every turn does the same work and only the conversation's length changes.

const PLACEHOLDERS = ["John Doe", "Jane Doe"];

function stayingScenario(turns: number): Scenario {
  return {
    flowName: "BasicFlow",
    description: `bench: ${turns} turns on NameStep, each a placeholder name refused with stay`,
    turns: Array.from({ length: turns }, (_, index): ScenarioTurn => {
      const name = PLACEHOLDERS[index % PLACEHOLDERS.length]!;
      return {
        label: `placeholder ${index + 1}`,
        input: name,
        expectedActiveStep: "NameStep",
        completed: false,
        responseMustInclude: [name.toLowerCase()],
        expectState: { NameStep: {} },
      };
    }),
    finalState: { NameStep: {} },
  };
}

/** Writes the scenario where the loader (and node:test) can read it, and loads it like the runner does. */
function writeScenario(dir: string, name: string, scenario: Scenario): LoadedScenario {
  const file = join(dir, `${name}.scenario.json`);
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`);
  return loadScenario(file, [BasicFlow]);
}

interface GrowthResult {
  firstMicros: number;
  lastMicros: number;
  ratio: number;
  firstHttpMicros: number;
  lastHttpMicros: number;
  firstStoreMicros: number;
  lastStoreMicros: number;
}

async function measureGrowth(dir: string): Promise<GrowthResult> {
  const loaded = writeScenario(dir, "bench-growth", stayingScenario(GROWTH.turns));
  const on = await target(loaded, dir);
  for (let index = 0; index < GROWTH.warmupConversations; index++) await converse(loaded, on);
  // Every turn of every conversation, by turn number: [turn][conversation].
  const turns: number[][] = Array.from({ length: GROWTH.turns }, () => []);
  const http: number[][] = Array.from({ length: GROWTH.turns }, () => []);
  const store: number[][] = Array.from({ length: GROWTH.turns }, () => []);
  await profiler?.start();
  for (let index = 0; index < GROWTH.conversations; index++) {
    const turnMillis: number[] = [];
    const parts = { http: [] as number[], store: [] as number[] };
    await converse(loaded, on, turnMillis, parts);
    turnMillis.forEach((millis, turn) => turns[turn]!.push(millis));
    parts.http.forEach((millis, turn) => http[turn]!.push(millis));
    parts.store.forEach((millis, turn) => store[turn]!.push(millis));
  }
  await profiler?.stop("growth");
  // Each turn number's median over the conversations, averaged over the window: ten turns of one
  // conversation are too few to stand against a stray GC pause or WAL checkpoint, which lands on
  // a different turn in each conversation and would otherwise decide the ratio alone.
  const window = GROWTH.window;
  const last = GROWTH.turns - window;
  const windowMicros = (byTurn: number[][], from: number) =>
    (byTurn.slice(from, from + window).reduce(
      (total, samples) =>
        total +
        percentile(
          [...samples].sort((a, b) => a - b),
          0.5,
        ),
      0,
    ) *
      1000) /
    window;
  const firstMicros = windowMicros(turns, 0);
  const lastMicros = windowMicros(turns, last);
  return {
    firstMicros,
    lastMicros,
    ratio: lastMicros / firstMicros,
    firstHttpMicros: windowMicros(http, 0),
    lastHttpMicros: windowMicros(http, last),
    firstStoreMicros: windowMicros(store, 0),
    lastStoreMicros: windowMicros(store, last),
  };
}

// ---------------------------------------------------------------------------------------------
// The runner as users run it: `flowcheck test <spec>` (what `npm test` and `npm run test:<flow>` call), one
// test per turn, timed whole.

/** A spec like the flow suites' own: one scenario file, registered with describeFlowScenarios (`files`). */
function writeSpec(dir: string, name: string, scenarioFile: string): string {
  const spec = join(dir, `${name}.spec.ts`);
  const from = (target: string) => {
    const path = relative(dir, target).split(sep).join("/");
    return path.startsWith(".") ? path : `./${path}`;
  };
  writeFileSync(
    spec,
    [
      "// Written by test/bench/bench.ts and removed when it ends.",
      `import { basicFlowEntry } from ${JSON.stringify(from(join(ROOT, "test", "fixtures", "flows", "index.ts")))};`,
      `import { describeFlowScenarios } from ${JSON.stringify(from(join(ROOT, "src", "testing", "index.ts")))};`,
      "",
      `describeFlowScenarios("BasicFlow", { files: [${JSON.stringify(scenarioFile)}], flows: [basicFlowEntry], artifactsDir: ${JSON.stringify(dir)} });`,
      "",
    ].join("\n"),
  );
  return spec;
}

/** The environment a user's run would have, minus what would point it away from the in-process app. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of [
    "FLOW_BASE_URL",
    "FLOW_MODEL",
    "FLOW_REPEAT",
    "FLOW_PASS_RATE",
    "SQLITE_PATH",
    "SESSION_STORE",
    "NODE_OPTIONS",
  ])
    delete env[key];
  return env;
}

/** A spec of `tests` empty async tests: what node:test alone costs per test, with no turn in it. */
function writeEmptySpec(dir: string, tests: number): string {
  const spec = join(dir, `bench-empty-${tests}.spec.ts`);
  writeFileSync(
    spec,
    [
      "// Written by test/bench/bench.ts and removed when it ends.",
      'import { describe, test } from "node:test";',
      "",
      // The shape describeFlowScenarios gives a scenario: a suite, and one async test per turn.
      `describe("empty", () => {`,
      `  for (let index = 0; index < ${tests}; index++) test(\`\${index + 1}. empty\`, async () => {});`,
      "});",
      "",
    ].join("\n"),
  );
  return spec;
}

/**
 * The wall time of `flowcheck test <spec>`, start-up and exit included, checking that
 * exactly `expectedPasses` tests passed. A child still running at `timeoutMillis` is killed (the
 * bench must end in two minutes), and the time so far is returned as a lower bound.
 */
async function timeSpec(
  spec: string,
  name: string,
  expectedPasses: number,
  timeoutMillis: number,
): Promise<{ millis: number; timedOut: boolean }> {
  const flags = profiler
    ? ["--cpu-prof", `--cpu-prof-dir=${profiler.dir}`, `--cpu-prof-name=${name}.cpuprofile`, "--cpu-prof-interval=100"]
    : [];
  let timedOut = false;
  const started = process.hrtime.bigint();
  const { code, signal, output } = await new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    output: string;
  }>((done, fail) => {
    // A group of its own, so that whatever the spec starts goes down with it. Like any run, it
    // leaves the (empty) results of a run in test/.tmp: the suite's own artifacts go to `dir`.
    const child = spawn(process.execPath, [...flags, join(ROOT, "src", "cli", "flowcheck.mjs"), "test", spec], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      // A killed run cannot remove the scratch folder its app made under test/.tmp; its name is ours.
      for (const entry of readdirSync(join(ROOT, "test", ".tmp"))) {
        if (entry.startsWith(`${name}-`)) rmSync(join(ROOT, "test", ".tmp", entry), { recursive: true, force: true });
      }
    };
    cleanups.push(kill);
    // A killed child writes no profile, and a profiled run writes no results: it gets all the time it needs.
    const timer = profiler
      ? undefined
      : setTimeout(
          () => {
            timedOut = true;
            kill();
          },
          Math.max(0, timeoutMillis),
        );
    child.on("error", fail);
    child.on("close", (exitCode, exitSignal) => {
      clearTimeout(timer);
      cleanups.splice(cleanups.indexOf(kill), 1);
      done({ code: exitCode, signal: exitSignal, output });
    });
  });
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  if (timedOut) return { millis, timedOut };
  // flowcheck test reports with node:test's spec reporter (`ℹ pass N`).
  const passed = Number(/^ℹ pass (\d+)$/m.exec(output)?.[1] ?? -1);
  if (code !== 0 || passed !== expectedPasses) {
    const why = signal
      ? `was killed (${signal}) after ${Math.round(millis)} ms`
      : `exited ${code} with ${passed} tests passed of ${expectedPasses}`;
    throw new Error(`bench: ${name} ${why}:\n${output.split("\n").slice(-40).join("\n")}`);
  }
  if (profiler) process.stderr.write(`bench: wrote ${join(profiler.dir, `${name}.cpuprofile`)}\n`);
  return { millis, timedOut };
}

/** A `turns`-turn scenario played by describeFlowScenarios: the start test, one test per turn, and the final state. */
function timeRunner(dir: string, turns: number, timeoutMillis: number): Promise<{ millis: number; timedOut: boolean }> {
  const name = `bench-runner-${turns}`;
  const loaded = writeScenario(dir, name, stayingScenario(turns));
  return timeSpec(writeSpec(dir, name, loaded.file), name, turns + 2, timeoutMillis);
}

/** The commit measured, with `+dirty` when the tree has changes: numbers belong to a version. */
function commitOf(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    // The results file is what a run writes, not part of the version it measures.
    const dirty =
      git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)test/bench/results.json") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? "+dirty" : ""}`;
  } catch {
    return "unknown";
  }
}

/** results.json's `suite` section: the medians and their ratio first, then what they were measured on. */
function suiteSection(suite: SuiteResult, loadBefore: number) {
  return {
    suiteMillis: round(suite.millis, 0),
    suiteRefMillis: round(suite.refMillis, 0),
    suiteRatio: round(suite.ratio, 3),
    command: suite.command,
    commit: commitOf(),
    ref: { ref: suite.ref, commit: suite.commit, installs: suite.installs },
    // In the order they ran.
    runs: suite.runs.map(({ tree, millis }) => ({ tree, millis: round(millis, 0) })),
    node: process.version,
    date: new Date().toISOString(),
    loadAverage: { before: round(loadBefore, 2), after: round(os.loadavg()[0]!, 2) },
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const phases = phasesToRun(argv);
  // Read before any phase runs, so that a bad value costs nothing.
  const rounds = phases.has("suite") ? suiteRounds(argv) : 0;
  const profileDir = argv.find((arg) => arg.startsWith("--profile="))?.slice("--profile=".length);
  if (profileDir !== undefined) profiler = new PhaseProfiler(profileDir);
  const benchStarted = performance.now();
  // Another process busy on this machine (a test run, a build) skews every number here. The load
  // average lags by a minute, so it also counts whatever ran just before: a hint, not a verdict.
  const loadBefore = os.loadavg()[0]!;
  if (loadBefore > 1)
    process.stderr.write(
      `bench: the 1-minute load average is ${loadBefore.toFixed(2)}; if other work is running, the numbers will be noisy\n`,
    );
  // The bench measures the app it boots here with the scripted model; an environment that points
  // the runner at another server or model would measure something else.
  for (const key of ["FLOW_BASE_URL", "FLOW_MODEL", "FLOW_REPEAT"]) delete process.env[key];

  const tmpRoot = join(ROOT, "test", ".tmp");
  mkdirSync(tmpRoot, { recursive: true });
  const dir = mkdtempSync(join(tmpRoot, "bench-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
  /** Registers what must be undone if the bench is stopped halfway; returns what forgets it. */
  const onCleanup = (undo: () => void) => {
    cleanups.push(undo);
    return () => void cleanups.splice(cleanups.indexOf(undo), 1);
  };
  let floor: FloorResult | undefined;
  let stack: StackResult | undefined;
  let blockRatios: number[] = [];
  let growth: GrowthResult | undefined;
  let runner:
    | {
        shortMillis: number;
        longMillis: number;
        millisPerTurn: number;
        timedOut: boolean;
        emptyMillisPerTest: number | undefined;
      }
    | undefined;
  let startup: StartupResult | undefined;
  let mainJob: Spread | undefined;
  let strength: Spread | undefined;
  let report: ReportPageResult | undefined;
  let langgraph: LanggraphTurnsResult | { skipped: string } | undefined;
  let seamCalls: SeamCallsResult | undefined;
  let seamConversation: SeamConversationResult | { skipped: string } | undefined;
  let suite: SuiteResult | undefined;

  if (phases.has("floor") || phases.has("stack")) {
    const parts = [
      phases.has("floor") ? `${FLOOR.rounds} floor round trips` : "",
      phases.has("stack") ? `${STACK.conversations} BasicFlow conversations` : "",
    ].filter(Boolean);
    log(`${parts.join(" and ")}, in ${BLOCKS} blocks…`);
    const floorPart = phases.has("floor") ? await startFloor(dir) : undefined;
    const stackPart = phases.has("stack") ? await startStack(dir) : undefined;
    const micros = await measureFloorAndStack(floorPart, stackPart);
    blockRatios = [...micros.ratios].sort((a, b) => a - b);
    if (floorPart && micros.floor !== undefined) floor = { micros: micros.floor, ...summary(floorPart.times) };
    if (stackPart && micros.stack !== undefined) {
      log(`stack: ${STACK.concurrentConversations} conversations on ${STACK.concurrency} sessions at once…`);
      const concurrent = await measureConcurrent(stackPart.loaded, stackPart.on);
      const sequential = summary(stackPart.times);
      stack = {
        micros: micros.stack,
        turnMicros: sequential.meanMicros,
        httpMicros: summary(stackPart.parts.http).meanMicros,
        storeMicros: summary(stackPart.parts.store).meanMicros,
        p50Micros: sequential.p50Micros,
        p99Micros: sequential.p99Micros,
        turnsPerSecond: concurrent.turnsPerSecond,
        concurrentP50Micros: concurrent.p50Micros,
        concurrentP99Micros: concurrent.p99Micros,
      };
    }
  }
  if (phases.has("growth")) {
    log(`growth: ${GROWTH.conversations} conversations of ${GROWTH.turns} turns…`);
    growth = await measureGrowth(dir);
  }
  // Before the runner, whose long run gets what is left of the two minutes.
  if (phases.has("startup")) {
    const ref = option(argv, "startup-ref", "HEAD~1");
    log(`startup: ${STARTUP_COMMAND.join(" ")}, this tree and ${ref} in turn…`);
    startup = await measureStartup({ root: ROOT, dir, ref, env: childEnv(), onCleanup });
  }
  if (phases.has("runner")) {
    log(`runner: ${RUNNER.short} and ${RUNNER.long} turns under node:test…`);
    const short = await timeRunner(dir, RUNNER.short, BUDGET_MILLIS - (performance.now() - benchStarted));
    if (short.timedOut)
      throw new Error(`bench: the ${RUNNER.short}-turn runner did not finish within the bench's two minutes`);
    const long = await timeRunner(dir, RUNNER.long, BUDGET_MILLIS - (performance.now() - benchStarted));
    if (long.timedOut)
      log(
        `runner: the ${RUNNER.long}-turn run was stopped after ${Math.round(long.millis)} ms to keep within two minutes; its cost per turn is a lower bound`,
      );
    // The same command over empty tests: what node:test charges per test before any turn runs.
    log(`runner: ${RUNNER.short} and ${RUNNER.long} empty tests under node:test…`);
    const emptyShort = await timeSpec(
      writeEmptySpec(dir, RUNNER.short),
      `bench-empty-${RUNNER.short}`,
      RUNNER.short,
      BUDGET_MILLIS - (performance.now() - benchStarted),
    );
    const emptyLong = await timeSpec(
      writeEmptySpec(dir, RUNNER.long),
      `bench-empty-${RUNNER.long}`,
      RUNNER.long,
      BUDGET_MILLIS - (performance.now() - benchStarted),
    );
    runner = {
      shortMillis: short.millis,
      longMillis: long.millis,
      millisPerTurn: (long.millis - short.millis) / (RUNNER.long - RUNNER.short),
      timedOut: long.timedOut,
      emptyMillisPerTest:
        emptyShort.timedOut || emptyLong.timedOut
          ? undefined
          : (emptyLong.millis - emptyShort.millis) / (RUNNER.long - RUNNER.short),
    };
  }
  if (phases.has("mainjob")) {
    log(`mainjob: ${MAIN_JOB_COMMAND.join(" ")}…`);
    mainJob = await measureJob(MAIN_JOB_COMMAND, MAIN_JOB_RUNS, { root: ROOT, env: childEnv(), onCleanup });
  }
  if (phases.has("strength")) {
    log(`strength: ${STRENGTH_COMMAND.join(" ")}…`);
    strength = await measureJob(STRENGTH_COMMAND, STRENGTH_RUNS, { root: ROOT, env: childEnv(), onCleanup });
  }
  if (phases.has("report")) {
    log(`report: the page of a ${REPORT_TURNS}-turn run, to DOMContentLoaded in headless Chromium…`);
    report = await measureReportPage(mkdtempSync(join(dir, "report-")), log);
  }
  if (phases.has("langgraph")) {
    log("langgraph: a chat graph's turns on the LangGraph dev server…");
    langgraph = await measureLanggraphTurns(dir);
    if ("skipped" in langgraph) log(`langgraph: skipped: ${langgraph.skipped}`);
  }
  if (phases.has("seamcalls")) {
    log("seamcalls: scripted model calls at the seam, in this process…");
    seamCalls = await measureSeamCalls();
  }
  if (phases.has("seamconversation")) {
    log("seamconversation: the AI SDK booking chat on its mock model and at the seam, in pairs…");
    seamConversation = await measureSeamConversation(dir);
    if ("skipped" in seamConversation) log(`seamconversation: skipped: ${seamConversation.skipped}`);
  }
  if (phases.has("suite")) {
    const ref = option(argv, "suite-ref", "HEAD~1");
    log(`suite: npm test, this tree and ${ref}'s in turn, ${rounds * 2} runs…`);
    // Outside this tree: its own npm test must not come upon the other tree under test/.tmp.
    const suiteDir = mkdtempSync(join(os.tmpdir(), "flowcheck-bench-suite-"));
    cleanups.push(() => rmSync(suiteDir, { recursive: true, force: true }));
    suite = await measureSuite({ root: ROOT, dir: suiteDir, ref, rounds, env: childEnv(), onCleanup, log });
  }
  await cleanUp();

  const floorRatio = !(floor && stack)
    ? undefined
    : blockRatios.length
      ? percentile(blockRatios, 0.5)
      : stack.micros / floor.micros;
  const ratioSpread = blockRatios.length
    ? { p25: percentile(blockRatios, 0.25), p75: percentile(blockRatios, 0.75) }
    : undefined;
  const rows: [string, string, string][] = [];
  const show = (value: number | undefined, digits = 1) => (value === undefined ? "—" : value.toFixed(digits));
  const met = (value: number | undefined, limit: number) =>
    value === undefined ? "" : value <= limit ? "met" : "NOT met";
  rows.push(["floor µs/turn (HTTP + 1 upsert + 1 read)", show(floor?.micros), ""]);
  rows.push(["  floor p50 / p99 µs", `${show(floor?.p50Micros)} / ${show(floor?.p99Micros)}`, ""]);
  rows.push(["stack µs/turn (sequential, whole conversations)", show(stack?.micros), ""]);
  rows.push(["  stack µs/turn (playTurn alone, mean)", show(stack?.turnMicros), ""]);
  rows.push([
    "  of which HTTP / runner's store re-read",
    `${show(stack?.httpMicros)} / ${show(stack?.storeMicros)}`,
    "",
  ]);
  rows.push(["  stack p50 / p99 µs", `${show(stack?.p50Micros)} / ${show(stack?.p99Micros)}`, ""]);
  rows.push(["floorRatio (median of the blocks' stack ÷ floor)", show(floorRatio, 2), `≤ 2.5 ${met(floorRatio, 2.5)}`]);
  rows.push([
    "  middle half of the blocks' ratios",
    ratioSpread ? `${show(ratioSpread.p25, 2)} – ${show(ratioSpread.p75, 2)}` : "—",
    "",
  ]);
  rows.push([`turns/s (${STACK.concurrency} sessions at once)`, show(stack?.turnsPerSecond, 0), ""]);
  rows.push([
    "  concurrent p50 / p99 µs",
    `${show(stack?.concurrentP50Micros)} / ${show(stack?.concurrentP99Micros)}`,
    "",
  ]);
  rows.push([`growth µs/turn, turns 1–${GROWTH.window}`, show(growth?.firstMicros), ""]);
  rows.push([
    `growth µs/turn, turns ${GROWTH.turns - GROWTH.window + 1}–${GROWTH.turns}`,
    show(growth?.lastMicros),
    "",
  ]);
  rows.push([
    "  of which HTTP (first → last)",
    `${show(growth?.firstHttpMicros)} → ${show(growth?.lastHttpMicros)}`,
    "",
  ]);
  rows.push([
    "  of which runner's store re-read (first → last)",
    `${show(growth?.firstStoreMicros)} → ${show(growth?.lastStoreMicros)}`,
    "",
  ]);
  rows.push(["growthRatio", show(growth?.ratio, 2), `≤ 1.3 ${met(growth?.ratio, 1.3)}`]);
  const atLeast = runner?.timedOut ? "≥ " : "";
  rows.push([
    `runner wall ms, ${RUNNER.short} / ${RUNNER.long} turns`,
    `${show(runner?.shortMillis, 0)} / ${atLeast}${show(runner?.longMillis, 0)}`,
    "",
  ]);
  rows.push([
    "runnerMillisPerTurn",
    `${atLeast}${show(runner?.millisPerTurn, 3)}`,
    `≤ 1.2 ${met(runner?.millisPerTurn, 1.2)}`,
  ]);
  rows.push(["  node:test alone, ms per empty test", show(runner?.emptyMillisPerTest, 3), ""]);
  rows.push([
    "startupMillis (npm run test:flows -- basic-flow, median)",
    show(startup?.millis.median, 0),
    `≤ ${STARTUP_TARGET_MILLIS} ${met(startup?.millis.median, STARTUP_TARGET_MILLIS)}`,
  ]);
  rows.push(["  min – max ms", startup ? `${show(startup.millis.min, 0)} – ${show(startup.millis.max, 0)}` : "—", ""]);
  const baseline = startup?.baseline;
  rows.push([
    `  ${baseline?.ref ?? "previous commit"}${baseline && "commit" in baseline ? ` (${baseline.commit})` : ""}, same run: median, min – max ms`,
    !baseline
      ? "—"
      : "millis" in baseline
        ? `${show(baseline.millis.median, 0)}, ${show(baseline.millis.min, 0)} – ${show(baseline.millis.max, 0)}`
        : `— (${baseline.missing})`,
    "",
  ]);
  rows.push([
    `mainJobMillis (${MAIN_JOB_COMMAND.join(" ")}, median)`,
    show(mainJob?.median, 0),
    `≤ ${MAIN_JOB_TARGET_MILLIS} ${met(mainJob?.median, MAIN_JOB_TARGET_MILLIS)}`,
  ]);
  rows.push(["  min – max ms", mainJob ? `${show(mainJob.min, 0)} – ${show(mainJob.max, 0)}` : "—", ""]);
  rows.push([
    `strengthMillis (${STRENGTH_COMMAND.join(" ")}, median)`,
    show(strength?.median, 0),
    `≤ ${STRENGTH_TARGET_MILLIS} ${met(strength?.median, STRENGTH_TARGET_MILLIS)}`,
  ]);
  rows.push(["  min – max ms", strength ? `${show(strength.min, 0)} – ${show(strength.max, 0)}` : "—", ""]);
  rows.push([
    `reportDomContentLoadedMillis (${REPORT_TURNS}-turn page, median)`,
    show(report?.domContentLoadedMillis.median, 0),
    `≤ ${REPORT_TARGET_MILLIS} ${met(report?.domContentLoadedMillis.median, REPORT_TARGET_MILLIS)}`,
  ]);
  rows.push([
    "  min – max ms; page size; render ms",
    report
      ? `${show(report.domContentLoadedMillis.min, 0)} – ${show(report.domContentLoadedMillis.max, 0)}; ${(report.bytes / 1e6).toFixed(1)} MB; ${show(report.renderMillis, 0)}`
      : "—",
    "",
  ]);
  const played = langgraph && !("skipped" in langgraph) ? langgraph : undefined;
  rows.push([
    "langgraphOwnMillisPerTurn (flowcheck's own: wall − the server's, median)",
    langgraph && "skipped" in langgraph ? `— (${langgraph.skipped})` : show(played?.ownMillis, 2),
    "",
  ]);
  rows.push([
    "  a turn's wall / the server's ms (median)",
    played ? `${show(played.turnMillis, 0)} / ${show(played.serverMillis, 0)}` : "—",
    "",
  ]);
  rows.push([
    "  the engine's, same measure: stack turn − its HTTP exchange, ms",
    stack ? show((stack.turnMicros - stack.httpMicros) / 1000, 2) : "—",
    "",
  ]);
  rows.push([
    "seamMillisPerCall (a scripted call at the seam, median)",
    show(seamCalls?.millisPerCall, 3),
    `≤ ${SEAM_CALL_TARGET_MILLIS} ${met(seamCalls?.millisPerCall, SEAM_CALL_TARGET_MILLIS)}`,
  ]);
  rows.push([
    "  chat / chat streamed / responses / responses streamed ms",
    seamCalls
      ? Object.values(seamCalls.byKind)
          .map((millis) => show(millis, 3))
          .join(" / ")
      : "—",
    "",
  ]);
  rows.push(["  a bare loopback round trip, same client, ms", show(seamCalls?.bareMillisPerCall, 3), ""]);
  const conversed = seamConversation && !("skipped" in seamConversation) ? seamConversation : undefined;
  rows.push([
    "seamConversationRatio (seam ÷ in-process mock, median of pairs)",
    seamConversation && "skipped" in seamConversation ? `— (${seamConversation.skipped})` : show(conversed?.ratio, 2),
    `≤ ${SEAM_CONVERSATION_TARGET_RATIO} ${met(conversed?.ratio, SEAM_CONVERSATION_TARGET_RATIO)}`,
  ]);
  rows.push([
    "  a conversation's wall, seam / mock ms (median)",
    conversed ? `${show(conversed.seamMillis, 0)} / ${show(conversed.mockMillis, 0)}` : "—",
    "",
  ]);
  rows.push([
    "  of which this process's CPU, seam / mock ms",
    conversed ? `${show(conversed.seamCpuMillis, 0)} / ${show(conversed.mockCpuMillis, 0)}` : "—",
    "",
  ]);
  rows.push([
    "  the app's CPU, seam / mock ms (mean)",
    conversed
      ? `${show(conversed.seamAppCpuMillis ?? undefined, 0)} / ${show(conversed.mockAppCpuMillis ?? undefined, 0)}`
      : "—",
    "",
  ]);
  rows.push([
    `suiteMillis (${suite?.command ?? "npm test"}, this tree, median of ${suite ? suite.runs.length / 2 : "—"})`,
    show(suite?.millis, 0),
    "",
  ]);
  rows.push([
    `  ${suite ? `${suite.ref} (${suite.commit})` : "the ref"}, same run: suiteRefMillis, median`,
    show(suite?.refMillis, 0),
    "",
  ]);
  rows.push(["suiteRatio (this tree ÷ the ref)", show(suite?.ratio, 3), ""]);
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  console.log(`flowcheck bench — Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}`);
  for (const [name, value, target] of rows)
    console.log(`${name.padEnd(width)}  ${value.padStart(valueWidth)}  ${target}`.trimEnd());
  const benchSeconds = (performance.now() - benchStarted) / 1000;
  console.log(`(the bench took ${benchSeconds.toFixed(1)} s; commit ${commitOf()})`);

  if (suite) {
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...readResults(), suite: suiteSection(suite, loadBefore) }, null, 2)}\n`,
    );
    log(`wrote the suite section of ${relative(ROOT, RESULTS)}`);
  }
  if (
    !(
      floor &&
      stack &&
      growth &&
      runner &&
      startup &&
      mainJob &&
      strength &&
      (report || NO_CHROMIUM) &&
      langgraph &&
      seamCalls &&
      seamConversation &&
      floorRatio !== undefined
    )
  ) {
    const kept = suite ? "kept its other sections as they were" : "was left as it was";
    log(`only ${[...phases].join(", ")} ran, so ${relative(ROOT, RESULTS)} ${kept}`);
    return;
  }
  if (profiler) {
    log(`a profiled run is slower than a plain one, so ${relative(ROOT, RESULTS)} was left as it was`);
    return;
  }
  const results = {
    floorMicrosPerTurn: round(floor.micros),
    stackMicrosPerTurn: round(stack.micros),
    floorRatio: round(floorRatio, 2),
    turnsPerSecond: round(stack.turnsPerSecond, 0),
    p50Micros: round(stack.p50Micros),
    p99Micros: round(stack.p99Micros),
    growthRatio: round(growth.ratio, 2),
    runnerMillisPerTurn: round(runner.millisPerTurn, 3),
    // True when the long run was stopped to keep within two minutes: runnerMillisPerTurn is then a lower bound.
    runnerTimedOut: runner.timedOut,
    startupMillis: round(startup.millis.median, 0),
    mainJobMillis: round(mainJob.median, 0),
    strengthMillis: round(strength.median, 0),
    // Null when no Chromium was found to open the page in.
    reportDomContentLoadedMillis: report ? round(report.domContentLoadedMillis.median, 0) : null,
    // Null when the LangGraph fixture project is not installed.
    langgraph:
      "skipped" in langgraph
        ? null
        : {
            turns: langgraph.turns,
            ownMillisPerTurn: round(langgraph.ownMillis, 2),
            turnMillis: round(langgraph.turnMillis, 0),
            serverMillis: round(langgraph.serverMillis, 0),
            engineOwnMillisPerTurn: round((stack.turnMicros - stack.httpMicros) / 1000, 2),
          },
    seamMillisPerCall: round(seamCalls.millisPerCall, 3),
    // Null when the AI SDK fixture project is not installed.
    seamConversationRatio: "skipped" in seamConversation ? null : round(seamConversation.ratio, 2),
    node: process.version,
    date: new Date().toISOString(),
    targets: {
      floorRatio: { max: 2.5, met: floorRatio <= 2.5 },
      growthRatio: { max: 1.3, met: growth.ratio <= 1.3 },
      runnerMillisPerTurn: { max: 1.2, met: runner.millisPerTurn <= 1.2 },
      startupMillis: { max: STARTUP_TARGET_MILLIS, met: startup.millis.median <= STARTUP_TARGET_MILLIS },
      mainJobMillis: { max: MAIN_JOB_TARGET_MILLIS, met: mainJob.median <= MAIN_JOB_TARGET_MILLIS },
      strengthMillis: { max: STRENGTH_TARGET_MILLIS, met: strength.median <= STRENGTH_TARGET_MILLIS },
      reportDomContentLoadedMillis: {
        max: REPORT_TARGET_MILLIS,
        met: report ? report.domContentLoadedMillis.median <= REPORT_TARGET_MILLIS : null,
      },
      seamMillisPerCall: { max: SEAM_CALL_TARGET_MILLIS, met: seamCalls.millisPerCall <= SEAM_CALL_TARGET_MILLIS },
      seamConversationRatio: {
        max: SEAM_CONVERSATION_TARGET_RATIO,
        met: "skipped" in seamConversation ? null : seamConversation.ratio <= SEAM_CONVERSATION_TARGET_RATIO,
      },
    },
    details: {
      commit: commitOf(),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? "unknown",
        platform: `${process.platform} ${os.release()}`,
      },
      floor: {
        rounds: FLOOR.rounds,
        blocks: BLOCKS,
        p50Micros: round(floor.p50Micros),
        p99Micros: round(floor.p99Micros),
      },
      // floorRatio is the median of the blocks' ratios; these are the quartiles around it.
      floorRatioQuartiles: ratioSpread ? [round(ratioSpread.p25, 2), round(ratioSpread.p75, 2)] : null,
      stack: {
        scenario: relative(ROOT, BASIC_FLOW_SCENARIO),
        conversations: STACK.conversations,
        blocks: BLOCKS,
        playTurnMicros: round(stack.turnMicros),
        httpMicros: round(stack.httpMicros),
        storeReadMicros: round(stack.storeMicros),
        concurrency: STACK.concurrency,
        concurrentConversations: STACK.concurrentConversations,
        concurrentP50Micros: round(stack.concurrentP50Micros),
        concurrentP99Micros: round(stack.concurrentP99Micros),
      },
      growth: {
        turns: GROWTH.turns,
        conversations: GROWTH.conversations,
        firstTurnsMicros: round(growth.firstMicros),
        lastTurnsMicros: round(growth.lastMicros),
        httpMicros: { first: round(growth.firstHttpMicros), last: round(growth.lastHttpMicros) },
        storeReadMicros: { first: round(growth.firstStoreMicros), last: round(growth.lastStoreMicros) },
      },
      runner: {
        command: "node src/cli/flowcheck.mjs test <spec>",
        shortTurns: RUNNER.short,
        shortMillis: round(runner.shortMillis, 0),
        longTurns: RUNNER.long,
        longMillis: round(runner.longMillis, 0),
        // The same command and the same suite shape with empty tests: node:test's own cost per test.
        emptyTestMillisPerTest: runner.emptyMillisPerTest === undefined ? null : round(runner.emptyMillisPerTest, 3),
      },
      startup: {
        command: STARTUP_COMMAND.join(" "),
        millis: roundMillis(startup.millis),
        // The same command on the earlier commit, timed in turn with this tree's in the same run.
        baseline:
          "millis" in startup.baseline
            ? { ...startup.baseline, millis: roundMillis(startup.baseline.millis) }
            : startup.baseline,
      },
      mainJob: { command: MAIN_JOB_COMMAND.join(" "), millis: roundMillis(mainJob) },
      strength: { command: STRENGTH_COMMAND.join(" "), millis: roundMillis(strength) },
      report: report
        ? {
            turns: report.turns,
            conversations: report.conversations,
            bytes: report.bytes,
            renderMillis: round(report.renderMillis, 0),
            domContentLoadedMillis: roundMillis(report.domContentLoadedMillis),
          }
        : { missing: NO_CHROMIUM },
      seamCalls: {
        calls: seamCalls.calls,
        millisByKind: Object.fromEntries(
          Object.entries(seamCalls.byKind).map(([kind, millis]) => [kind, round(millis, 3)]),
        ),
        // The same client's round trip to a bare node:http server, timed in turn with the seam's calls.
        bareMillisPerCall: round(seamCalls.bareMillisPerCall, 3),
      },
      seamConversation:
        "skipped" in seamConversation
          ? { skipped: seamConversation.skipped }
          : {
              turns: seamConversation.turns,
              pairs: seamConversation.pairs,
              seamMillis: round(seamConversation.seamMillis, 0),
              mockMillis: round(seamConversation.mockMillis, 0),
              // This process's CPU over a conversation: the runner's, and the seam's on the seam side.
              seamCpuMillis: round(seamConversation.seamCpuMillis, 0),
              mockCpuMillis: round(seamConversation.mockCpuMillis, 0),
              // Each app's CPU per conversation, from /proc (null without it).
              seamAppCpuMillis: nullableRound(seamConversation.seamAppCpuMillis),
              mockAppCpuMillis: nullableRound(seamConversation.mockAppCpuMillis),
            },
      benchSeconds: round(benchSeconds, 1),
      // The 1-minute load average before and after: above ~1 on 2 cores, something else competed.
      loadAverage: { before: round(loadBefore, 2), after: round(os.loadavg()[0]!, 2) },
    },
  };
  // The live section is `npm run bench:live`'s, and the suite section --only=suite's: kept as they were.
  const kept = Object.entries(readResults()).filter(([section]) => section === "live" || section === "suite");
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, ...Object.fromEntries(kept) }, null, 2)}\n`);
  log(`wrote ${relative(ROOT, RESULTS)}`);
}

let interrupted = false;
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
] as const) {
  process.once(signal, () => {
    interrupted = true;
    void cleanUp().finally(() => process.exit(128 + number));
  });
}

main().then(
  () => undefined,
  async (error: unknown) => {
    await cleanUp();
    // A suite run that failed says why in its own last lines, and the bench exits with its code.
    if (error instanceof SuiteRunFailed) {
      console.error(error.message);
      process.exitCode = error.exitCode;
      return;
    }
    if (!interrupted) console.error((error as Error).stack ?? String(error));
    process.exitCode = 1;
  },
);
