// tsx test/bench/ab.ts <tree A> <tree B> [blocks]: which of two versions plays a checked BasicFlow
// turn faster, on a machine whose speed drifts by 2× within minutes. Runs in one process: both
// trees' code is loaded side by side, each boots its own app, and blocks of 50 whole conversations
// alternate between them (the order flipping every block), so a slow minute lands on both. Prints
// each side's median µs per turn and B's time over A's per block; an A/A run spreads about ±3%.
//
// A tree is a checkout with `src/` and `scenarios/`, e.g. the commit to compare against:
//   git worktree add /tmp/before HEAD~1 && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   npx tsx test/bench/ab.ts /tmp/before .
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const WARMUP_CONVERSATIONS = 250;
const PER_BLOCK = 50;

interface Side {
  tree: string;
  conversation(): Promise<number>;
  close(): Promise<void>;
  blockMicros: number[];
}

async function side(tree: string, scratch: string): Promise<Side> {
  const load = (path: string) => import(pathToFileURL(join(tree, path)).href);
  // Each tree is read through its public entry points: the app's (src/index.ts) for the demo
  // BasicFlow's entry, the tester's (src/testing/index.ts) for loading and playing the scenario. An
  // older tree, whose entry points did not have these yet, is read where the names were then.
  const app = await load("src/index.ts");
  const basicFlowEntry =
    (app.registeredFlows as { flow: { name: string } }[] | undefined)?.find(
      (entry) => entry.flow.name === "BasicFlow",
    ) ?? (await load("src/flows/basic/index.ts").catch(() => load("src/flows/index.ts"))).basicFlowEntry;
  const BasicFlow = basicFlowEntry.flow;
  const testing = await load("src/testing/index.ts");
  const { loadScenario } = testing.loadScenario ? testing : await load("src/testing/load-scenario.ts");
  const { ScenarioRun } = testing.ScenarioRun ? testing : await load("src/testing/scenario-run.ts");
  const { startScenarioTarget } = testing.startScenarioTarget ? testing : await load("src/testing/scenario-target.ts");
  const loaded = loadScenario(join(tree, "scenarios", "basic-flow.scenario.json"), [BasicFlow]);
  const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], scratchDir: scratch });
  const turns: number = loaded.scenario.turns.length;
  return {
    tree,
    blockMicros: [],
    close: () => target.close(),
    async conversation() {
      const run = new ScenarioRun(loaded, target);
      run.start();
      try {
        for (let index = 0; index < turns; index++) {
          const report = await run.playTurn(index);
          if (report.outcome !== "passed") throw new Error(`ab: ${tree}: ${report.failure}`);
        }
        const final = await run.finish();
        if (final.outcome !== "passed") throw new Error(`ab: ${tree}: ${final.failure}`);
        return turns;
      } finally {
        run.end();
      }
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const [a, b, blocksArg] = process.argv.slice(2);
  if (!a || !b) throw new Error("ab: usage: tsx test/bench/ab.ts <tree A> <tree B> [blocks, default 12]");
  const blocks = Number(blocksArg ?? 12);
  if (!Number.isInteger(blocks) || blocks < 2)
    throw new Error(`ab: blocks must be a whole number of at least 2, got ${blocksArg}`);
  // The bench measures the scripted app it boots; an environment pointing elsewhere would not be that.
  for (const key of ["FLOW_BASE_URL", "FLOW_MODEL", "FLOW_REPEAT"]) delete process.env[key];
  const tmpRoot = resolve("test", ".tmp");
  mkdirSync(tmpRoot, { recursive: true });
  const scratch = mkdtempSync(join(tmpRoot, "ab-"));
  const sides: Side[] = [];
  try {
    for (const tree of [a, b]) sides.push(await side(resolve(tree), scratch));
    for (let index = 0; index < WARMUP_CONVERSATIONS; index++) for (const each of sides) await each.conversation();
    for (let block = 0; block < blocks; block++) {
      for (const each of block % 2 ? [...sides].reverse() : sides) {
        const started = performance.now();
        let turns = 0;
        for (let index = 0; index < PER_BLOCK; index++) turns += await each.conversation();
        each.blockMicros.push(((performance.now() - started) * 1000) / turns);
      }
    }
    const [first, second] = sides as [Side, Side];
    const ratios = first.blockMicros.map((micros, index) => second.blockMicros[index]! / micros);
    console.log(`A ${first.tree}: ${median(first.blockMicros).toFixed(1)} µs/turn (median of ${blocks} blocks)`);
    console.log(`B ${second.tree}: ${median(second.blockMicros).toFixed(1)} µs/turn`);
    console.log(
      `B ÷ A, median of blocks: ${median(ratios).toFixed(3)} (blocks: ${ratios.map((ratio) => ratio.toFixed(2)).join(" ")})`,
    );
  } finally {
    for (const each of sides) await each.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exitCode = 1;
});
