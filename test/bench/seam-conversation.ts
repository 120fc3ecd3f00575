// What serving an app's model at the seam costs a whole conversation: the AI SDK fixture's booking
// chat (test/fixtures/ai-sdk-project/server.mjs) started twice by the run's own machinery, as a
// target with a `start` each: once on its in-process MockLanguageModelV4 (BOOKING_MODEL unset), once
// on @ai-sdk/openai's Responses provider (BOOKING_MODEL=responses) with flowcheck serving its model
// at the seam, answered by the fixture's seam script (test/fixtures/seam-scripts/booking-desk.ts),
// which answers as the mock does. The same 20-turn scenario is played against each by ScenarioRun,
// every check on, and timed the same way: the wall of its 20 turns. The two sides alternate in
// pairs, the order flipping every pair, so a slow minute of the machine lands on both; the figure is
// the median of the pairs' ratios (seam ÷ mock). Where /proc tells a process's CPU (Linux), each
// app's CPU over the timed conversations is read there too: a conversation's wall on each side is
// then split into this process's CPU (flowcheck's: the runner's, and the seam's), the app's, and
// the rest (waiting on each other).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ScenarioRun } from "../../src/testing/run/scenario-run.ts";
import { loadScenario } from "../../src/testing/scenario/load-scenario.ts";
import type { LoadedScenario } from "../../src/testing/scenario/scenario.ts";
import { startScenarioTarget } from "../../src/testing/target/scenario-target.ts";
import { servedApps } from "../../src/testing/target/served-model.ts";
import type { StartableEntry } from "../../src/testing/target/start/started-apps.ts";
import type { TargetConfig } from "../../src/testing/target/target-config.ts";
import { fixtureProjectMissing } from "../support/fixture-projects.mjs";

const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");
const PROJECT = join(FIXTURES, "ai-sdk-project");
const SCRIPTS = join(FIXTURES, "seam-scripts", "booking-desk.ts");
/** The Mastra fixture's preload that refuses every connection off this machine. */
const LOOPBACK_ONLY = join(FIXTURES, "mastra-project", "src", "loopback-only.ts");
const STEPS = ["search", "guest", "done"];

/** Conversations per side before the timed ones, while V8 compiles both processes' hot code. */
const WARMUP_CONVERSATIONS = 3;
const PAIRS = 10;

export interface SeamConversationResult {
  turns: number;
  pairs: number;
  /** The median of the pairs' seam ÷ mock. */
  ratio: number;
  /** Medians of a conversation's wall, in ms. */
  seamMillis: number;
  mockMillis: number;
  /**
   * Medians of this process's CPU over a conversation, in ms: flowcheck's own (the runner's, and on
   * the seam side the seam's too); the rest of the wall is the app's.
   */
  seamCpuMillis: number;
  mockCpuMillis: number;
  /** Each app's CPU per timed conversation, in ms (a mean: /proc counts in ticks of 10 ms); null without /proc. */
  seamAppCpuMillis: number | null;
  mockAppCpuMillis: number | null;
}

interface Played {
  millis: number;
  cpuMillis: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Turn = { label: string; input: string; expectedActiveStep: string; responseMustInclude: string[] };

/**
 * Twenty turns of the booking chat: a greeting, a room found, a booking that fails, one made, then
 * another city's room booked for another guest, over and over; every turn but the greetings makes
 * two model calls (a tool call, then a sentence about its output).
 */
function twentyTurns(): Turn[] {
  const turn = (label: string, input: string, step: string, says: string): Turn => ({
    label,
    input,
    expectedActiveStep: step,
    responseMustInclude: [says],
  });
  const opening = [
    turn("asks where", "Hello", "search", "Which city"),
    turn("finds a room", "A room in Lisbon for 2 nights", "guest", "Hotel Sol"),
    turn("cannot book for nobody", "Book it for nobody", "guest", "could not"),
    turn("books for Ada", "Book it for Ada", "done", "SOL-ADA-1"),
  ];
  const again = (round: number) => [
    turn(`finds another room ${round}`, "A room in Porto for 3 nights", "done", "Casa Rio"),
    turn(`books for Grace ${round}`, "Book it for Grace", "done", "RIO-GRACE-1"),
    turn(`asks where again ${round}`, "Hello", "done", "Which city"),
    turn(`books for Alan ${round}`, "Book it for Alan", "done", "RIO-ALAN-1"),
  ];
  return [...opening, ...again(1), ...again(2), ...again(3), ...again(4)];
}

/** /proc's ticks a second (USER_HZ): 100 on Linux, whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

/** The CPU the processes of group `group` have used so far, in ms, as /proc tells it; undefined without /proc. */
function groupCpuMillis(group: number | undefined): number | undefined {
  if (group === undefined || !existsSync("/proc/self/stat")) return undefined;
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone since the folder was listed
    }
    // After the command's ")": state, ppid, pgrp, …, utime and stime the 12th and 13th fields on.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

function targetsAt(dir: string): TargetConfig {
  const entry = (env: Record<string, string>) => ({
    kind: "ai-sdk" as const,
    baseUrl: "http://127.0.0.1:{{port}}",
    answer: { step: "/metadata/step" },
    flows: { booking: { steps: STEPS } },
    start: {
      command: `"${process.execPath}" --import "${LOOPBACK_ONLY}" server.mjs`,
      cwd: PROJECT,
      env: { PORT: "{{port}}", ...env },
      ready: "http://127.0.0.1:{{port}}/api/chats/none",
      timeoutMs: 20_000,
    },
  });
  return {
    path: join(dir, "flowcheck.config.json"),
    targets: {
      mock: entry({}),
      seam: { ...entry({ BOOKING_MODEL: "responses" }), model: { scripts: SCRIPTS } },
    },
  };
}

function scenarioFor(dir: string, target: "mock" | "seam"): LoadedScenario {
  const file = join(dir, `seam-bench-${target}.scenario.json`);
  writeFileSync(file, JSON.stringify({ flowName: "booking", target, turns: twentyTurns() }));
  return loadScenario(file, [], {
    outline: { name: "booking", stepNames: STEPS, servedBy: `target ${target}`, kind: "ai-sdk" },
  });
}

/**
 * Measures the pairs; `{ skipped }` when the fixture project is not installed (the bench does not
 * run npm test's pretest, which installs it).
 */
export async function measureSeamConversation(dir: string): Promise<SeamConversationResult | { skipped: string }> {
  const missing = fixtureProjectMissing("ai-sdk-project");
  if (missing) return { skipped: missing };
  const targets = targetsAt(dir);
  const apps = servedApps({ env: process.env, logDir: dir }, "scripted");
  const options = { flows: [], targets, scratchDir: dir, startedApps: apps };
  const play = async (loaded: LoadedScenario): Promise<Played> => {
    const target = await startScenarioTarget(loaded, options);
    const run = new ScenarioRun(loaded, target);
    try {
      run.start();
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (let index = 0; index < loaded.scenario.turns.length; index++) {
        const report = await run.playTurn(index);
        if (report.outcome !== "passed")
          throw new Error(`bench: ${loaded.scenario.target} turn ${index + 1}: ${report.failure}`);
      }
      const millis = performance.now() - started;
      const { user, system } = process.cpuUsage(cpu);
      return { millis, cpuMillis: (user + system) / 1000 };
    } finally {
      run.end();
      await target.close();
    }
  };
  try {
    const mock = scenarioFor(dir, "mock");
    const seam = scenarioFor(dir, "seam");
    for (let round = 0; round < WARMUP_CONVERSATIONS; round++) {
      await play(mock);
      await play(seam);
    }
    // Started by the warm-up, so these are the apps already running. Each group's CPU is read
    // around a whole play, its target's opening and closing included, and summed per side.
    const groups = {
      mock: (await apps.app("mock", targets.targets["mock"] as StartableEntry)).pid,
      seam: (await apps.app("seam", targets.targets["seam"] as StartableEntry)).pid,
    };
    const appCpu = { mock: 0, seam: 0 };
    const played = { mock: [] as Played[], seam: [] as Played[] };
    const ratios: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 ? ([seam, mock] as const) : ([mock, seam] as const);
      for (const loaded of order) {
        const side = loaded === seam ? "seam" : "mock";
        const before = groupCpuMillis(groups[side]);
        played[side].push(await play(loaded));
        const after = groupCpuMillis(groups[side]);
        appCpu[side] += before === undefined || after === undefined ? Number.NaN : after - before;
      }
      ratios.push(played.seam.at(-1)!.millis / played.mock.at(-1)!.millis);
    }
    const of = (side: Played[], part: keyof Played) => median(side.map((one) => one[part]));
    return {
      turns: mock.scenario.turns.length,
      pairs: PAIRS,
      ratio: median(ratios),
      seamMillis: of(played.seam, "millis"),
      mockMillis: of(played.mock, "millis"),
      seamCpuMillis: of(played.seam, "cpuMillis"),
      mockCpuMillis: of(played.mock, "cpuMillis"),
      seamAppCpuMillis: Number.isNaN(appCpu.seam) ? null : appCpu.seam / PAIRS,
      mockAppCpuMillis: Number.isNaN(appCpu.mock) ? null : appCpu.mock / PAIRS,
    };
  } finally {
    await apps.closeAll();
  }
}
