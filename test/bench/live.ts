// npm run bench:live (tsx test/bench/live.ts): how much of a live run's wall time its parallel
// conversations save. Not a test: nothing here asserts a timing. A local OpenAI-compatible server
// answers every request after --latency ms (the model from the demo flows' scripts, a simulated user
// from the flows' scripted users, the judge with a passing verdict); the demo scenarios then run live
// with JUDGE=required through flowcheck test, as `npm run test:live -- scenarios` would, each run
// timed from command start to exit:
//
//   alone      each scenario file by itself (a file's cases are played together);
//   whole      every scenario at once, with the default settings, and again with --repeat 5 (with the
//              default FLOW_CONCURRENCY, OPENAI_MAX_INFLIGHT's 16, and with 8);
//   fixed      the scenarios with fixed turns alone, all at once;
//   simulated  the scenarios with a simulated user alone, all at once;
//   serial     every scenario with FLOW_CONCURRENCY=1, the way every run went before.
//
// Parallel efficiency = the longest file alone ÷ the whole run: 1 when the run takes no longer
// than its longest conversation; for fixed and simulated, the longest of their own files. It writes the `live` section of test/bench/results.json (the
// other sections as they were) and prints the figures for docs/performance.md.
//
// Options (after `npm run bench:live --`): --latency <ms> (default 300), --repeat <n> (default 5).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
// The registered flows, not the demos by name: with the demos switched off it measures the team's own.
import { registeredFlows } from "../../src/flows/index.ts";
import { discoverScenarios, scenarioHeaderOf } from "../../src/testing/scenario/scenario-discovery.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai-server.ts";
import { playScriptedUsers } from "../support/fake-simulated-user.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const RESULTS = join(ROOT, "test", "bench", "results.json");
const SCENARIOS = "scenarios";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value =
    at === -1 ? process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] : process.argv[at + 1];
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} takes a whole number, got ${value}`);
  return parsed;
}

interface Timed {
  wallMillis: number;
  requests: number;
  maxInFlight: number;
  code: number | null;
}

/** `flowcheck test <args>` live against `fake`, from command start to exit, with the server's counts. */
async function timedRun(fake: FakeOpenAI, args: string[], env: Record<string, string> = {}): Promise<Timed> {
  fake.requests.length = 0;
  fake.maxInFlight = 0;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(childEnv))
    if (/^(FLOW_|OPENAI_|JUDGE|FLOWCHECK_|NODE_TEST_CONTEXT$|CI$)/.test(key)) delete childEnv[key];
  Object.assign(childEnv, {
    FLOW_MODEL: "live",
    JUDGE: "required",
    JUDGE_CACHE: "off",
    OPENAI_API_KEY: "bench-key",
    OPENAI_BASE_URL: fake.baseURL,
    ...env,
  });
  const started = performance.now();
  // As `npm run test:live -- <scenario paths>`: the flow specs, narrowed to the scenarios given.
  const child = spawn(process.execPath, ["src/cli/flowcheck.mjs", "test", "test/flows", ...args], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const wallMillis = Math.round(performance.now() - started);
  if (code !== 0) process.stderr.write(`flowcheck test ${args.join(" ")} ended with ${code}:\n${output}\n`);
  return { wallMillis, requests: fake.requests.length, maxInFlight: fake.maxInFlight, code };
}

const log = (line: string) => console.log(`[bench:live] ${line}`);

async function main(): Promise<void> {
  const latencyMs = option("latency", 300);
  const repeat = option("repeat", 5);
  const scripts = registeredFlows.flatMap((entry) => Object.values(entry.scripts ?? {}));
  const fake = await startFakeOpenAI(scripts);
  fake.delayMs = latencyMs;
  const files = discoverScenarios(SCENARIOS).files.sort();
  // Each simulated scenario's persona is played by its flow's scripted user.
  const userByPersona = new Map(
    files.flatMap((file) => {
      const header = scenarioHeaderOf(file) as { flowName?: string; user?: { persona?: string } } | undefined;
      const user = registeredFlows.find((entry) => entry.flow.name === header?.flowName)?.user;
      return header?.user?.persona && user ? [[header.user.persona, user] as const] : [];
    }),
  );
  playScriptedUsers(fake, (persona) => userByPersona.get(persona));
  const simulatedFiles = files.filter((file) => (scenarioHeaderOf(file) as { user?: unknown } | undefined)?.user);
  const fixedFiles = files.filter((file) => !simulatedFiles.includes(file));
  try {
    const alone: Record<string, Timed> = {};
    for (const file of files) {
      alone[file] = await timedRun(fake, [file]);
      log(`${file} alone: ${alone[file]!.wallMillis} ms, ${alone[file]!.requests} requests`);
    }
    const longestOf = (group: readonly string[]) =>
      Object.entries(alone)
        .filter(([file]) => group.includes(file))
        .sort((a, b) => b[1].wallMillis - a[1].wallMillis)[0]!;
    const [longestFile, longest] = longestOf(files);
    const whole = await timedRun(fake, [SCENARIOS]);
    // The fixed scenarios and the simulated ones, each group by itself: its efficiency beside the other's.
    const grouped: Record<string, unknown> = {};
    for (const [name, group] of Object.entries({ fixed: fixedFiles, simulated: simulatedFiles })) {
      if (group.length === 0) continue;
      const [file, own] = longestOf(group);
      const run = await timedRun(fake, group);
      const efficiency = Number((own.wallMillis / run.wallMillis).toFixed(2));
      grouped[name] = { files: group.length, longestAlone: { file, wallMillis: own.wallMillis }, ...run, efficiency };
      log(
        `${name} (${group.length} files): ${run.wallMillis} ms, ${run.requests} requests, at most ${run.maxInFlight} in flight, efficiency ${efficiency} (longest alone ${file}, ${own.wallMillis} ms)`,
      );
    }
    const repeated = await timedRun(fake, [SCENARIOS, "--repeat", String(repeat)]);
    // Five copies of every conversation are 45 conversations: 8 slots cannot play them in the time of the longest.
    const repeatedNarrow = await timedRun(fake, [SCENARIOS, "--repeat", String(repeat)], { FLOW_CONCURRENCY: "8" });
    const serial = await timedRun(fake, [SCENARIOS], { FLOW_CONCURRENCY: "1" });
    const efficiency = (run: Timed) => Number((longest.wallMillis / run.wallMillis).toFixed(2));
    const live = {
      latencyMs,
      scenarios: files.length,
      longestAlone: { file: longestFile, wallMillis: longest.wallMillis, requests: longest.requests },
      whole: { ...whole, efficiency: efficiency(whole) },
      ...grouped,
      repeated: { repeat, ...repeated, efficiency: efficiency(repeated) },
      repeatedAtConcurrency8: { repeat, ...repeatedNarrow, efficiency: efficiency(repeatedNarrow) },
      serial: { ...serial, efficiency: efficiency(serial) },
      alone: Object.fromEntries(Object.entries(alone).map(([file, run]) => [file, run.wallMillis])),
      node: process.version,
      date: new Date().toISOString(),
    };
    log(`longest alone: ${longestFile}, ${longest.wallMillis} ms`);
    const runs = [
      ["whole", live.whole],
      [`--repeat ${repeat}`, live.repeated],
      [`--repeat ${repeat}, FLOW_CONCURRENCY=8`, live.repeatedAtConcurrency8],
      ["FLOW_CONCURRENCY=1", live.serial],
    ] as const;
    for (const [name, run] of runs) {
      log(
        `${name}: ${run.wallMillis} ms, ${run.requests} requests, at most ${run.maxInFlight} in flight, efficiency ${run.efficiency}${run.code === 0 ? "" : ` (exit ${run.code})`}`,
      );
    }
    const results = JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>;
    writeFileSync(RESULTS, `${JSON.stringify({ ...results, live }, null, 2)}\n`);
    log(`wrote the live section of ${relative(ROOT, RESULTS)}`);
  } finally {
    await fake.close();
  }
}

await main();
