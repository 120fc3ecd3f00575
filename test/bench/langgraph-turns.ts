// flowcheck's own cost per turn against a LangGraph target: the runner's ScenarioRun plays a chat
// graph of the fixture project, served by the real dev server, and each turn's wall time is split
// into the time spent waiting for the server's answers (every request the turn made: the thread's
// state before it, the run, the state re-read after it) and the rest, which is flowcheck's own.
// The dev server's run loop polls every 500 ms, so a turn's wall is mostly the server's.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScenarioRun } from "../../src/testing/run/scenario-run.ts";
import { loadScenario } from "../../src/testing/scenario/load-scenario.ts";
import { startScenarioTarget } from "../../src/testing/target/scenario-target.ts";
import type { TargetConfig } from "../../src/testing/target/target-config.ts";
import { fixtureProjectMissing } from "../support/fixture-projects.mjs";
import { LANGGRAPH_FIXTURE, startLanggraphDevServer } from "../support/langgraph-dev-server.ts";

/** Turns of one conversation: each a refused name, which keeps the chat graph on NameStep. */
const TURNS = 24;
/** The first turns, while V8 compiles the code they run, are not counted. */
const WARMUP_TURNS = 4;
const CHAT_STEPS = ["NameStep", "EmailStep", "DoneStep"];

export interface LanggraphTurnsResult {
  turns: number;
  /** Medians over the counted turns, in ms. */
  turnMillis: number;
  serverMillis: number;
  ownMillis: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The fetches made while `play` runs, summed: what the turn waited for the server. */
async function timedFetches<T>(play: () => Promise<T>): Promise<{ value: T; fetchMillis: number }> {
  const original = globalThis.fetch;
  let fetchMillis = 0;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const started = performance.now();
    try {
      const response = await original(...args);
      // The body is read by the caller: clone it here so that its arrival is counted too.
      const body = await response.clone().arrayBuffer();
      fetchMillis += performance.now() - started;
      return new Response(body, response);
    } catch (error) {
      fetchMillis += performance.now() - started;
      throw error;
    }
  };
  try {
    return { value: await play(), fetchMillis };
  } finally {
    globalThis.fetch = original;
  }
}

/**
 * Plays the conversation and splits each turn; `{ skipped }` when the fixture project is not
 * installed (the bench does not run npm test's pretest, which installs it).
 */
export async function measureLanggraphTurns(dir: string): Promise<LanggraphTurnsResult | { skipped: string }> {
  const missing = fixtureProjectMissing(LANGGRAPH_FIXTURE);
  if (missing) return { skipped: missing };
  const server = await startLanggraphDevServer();
  try {
    const file = join(dir, "langgraph-bench.scenario.json");
    const turns = Array.from({ length: TURNS }, (_, index) => ({
      label: `refused name ${index + 1}`,
      input: "x",
      expectedActiveStep: "NameStep",
      responseMustInclude: ["first and last name"],
    }));
    writeFileSync(file, JSON.stringify({ flowName: "chat", target: "bench", turns }));
    const loaded = loadScenario(file, [], {
      outline: { name: "chat", stepNames: CHAT_STEPS, servedBy: `graph chat at ${server.baseUrl}`, kind: "langgraph" },
    });
    const targets: TargetConfig = {
      path: join(dir, "flowcheck.config.json"),
      targets: {
        bench: {
          kind: "langgraph",
          baseUrl: server.baseUrl,
          graphs: { chat: { step: "/step", completed: "/done", steps: CHAT_STEPS } },
        },
      },
    };
    const target = await startScenarioTarget(loaded, { flows: [], targets, scratchDir: dir });
    const run = new ScenarioRun(loaded, target);
    const split = { turn: [] as number[], server: [] as number[], own: [] as number[] };
    try {
      run.start();
      for (let index = 0; index < TURNS; index++) {
        const started = performance.now();
        const { value: report, fetchMillis } = await timedFetches(() => run.playTurn(index));
        const millis = performance.now() - started;
        if (report.outcome !== "passed") throw new Error(`bench: langgraph turn ${index + 1}: ${report.failure}`);
        if (index < WARMUP_TURNS) continue;
        split.turn.push(millis);
        split.server.push(fetchMillis);
        split.own.push(millis - fetchMillis);
      }
    } finally {
      run.end();
      await target.close();
    }
    return {
      turns: TURNS - WARMUP_TURNS,
      turnMillis: median(split.turn),
      serverMillis: median(split.server),
      ownMillis: median(split.own),
    };
  } finally {
    await server.close();
  }
}
