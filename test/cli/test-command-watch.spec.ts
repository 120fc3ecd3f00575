import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { describe, test, type TestContext } from "node:test";
import { basicFlowProject } from "../support/basic-flow-project.ts";
import { childEnvironment, FLOWCHECK, ROOT } from "../support/child-run.ts";

// `flowcheck test --watch` in a temp project on the fixture BasicFlow: a real watcher process whose
// rounds are real `flowcheck test` children, driven by real edits of the project's files.

const turns = [
  { label: "name accepted", input: "John Wick", expectedActiveStep: "WeatherStep" },
  { label: "two cities", input: "LA, NYC", expectedActiveStep: "AddressStep" },
];
const SCENARIO = join("scenarios", "wick.scenario.json");
const ROUND_MILLIS = 60_000;

/** The watcher's output so far, and a wait for a line that matches after what was already read. */
class Watcher {
  readonly child: ChildProcess;
  /** Every process started under the watcher carries it, so that one left behind can be found. */
  readonly mark = randomUUID();
  output = "";
  #read = 0;
  #waiting: (() => void)[] = [];

  constructor(cwd: string, args: string[]) {
    this.child = spawn(process.execPath, [FLOWCHECK, "test", "--watch", ...args, "--test-reporter=tap"], {
      cwd,
      env: childEnvironment({ WATCH_SPEC_MARK: this.mark }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const add = (chunk: string) => {
      this.output += chunk;
      for (const wake of this.#waiting.splice(0)) wake();
    };
    this.child.stdout!.setEncoding("utf8").on("data", add);
    this.child.stderr!.setEncoding("utf8").on("data", add);
    this.child.on("exit", () => add(""));
  }

  /** The output up to and including the next line matching `pattern`, read from there on. */
  async next(pattern: RegExp, millis = ROUND_MILLIS): Promise<string> {
    const deadline = Date.now() + millis;
    for (;;) {
      const rest = this.output.slice(this.#read);
      const match = new RegExp(`^.*${pattern.source}.*$`, "m").exec(rest);
      if (match) {
        const upTo = match.index + match[0].length;
        this.#read += upTo;
        return rest.slice(0, upTo);
      }
      if (this.child.exitCode !== null) assert.fail(`the watcher exited before ${pattern}:\n${this.output}`);
      if (Date.now() > deadline) assert.fail(`no ${pattern} in ${millis} ms:\n${this.output}`);
      await new Promise<void>((wake) => {
        this.#waiting.push(wake);
        setTimeout(wake, 200);
      });
    }
  }

  /** SIGINT, as Ctrl-C sends it; the exit code. */
  async interrupt(): Promise<number | null> {
    const exited = new Promise<number | null>((resolveExit) => this.child.once("exit", (code) => resolveExit(code)));
    this.child.kill("SIGINT");
    return exited;
  }

  /** The processes still running with this watcher's mark. */
  leftBehind(): string[] {
    return readdirSync("/proc").filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readFileSync(join("/proc", pid, "environ"), "utf8").includes(`WATCH_SPEC_MARK=${this.mark}`);
      } catch {
        return false;
      }
    });
  }

  /** Kills the watcher and whatever it left, for a test that failed half way. */
  kill(): void {
    for (const pid of this.leftBehind()) process.kill(Number(pid), "SIGKILL");
  }
}

async function watching(t: TestContext, cwd: string, args: string[]): Promise<Watcher> {
  const watcher = new Watcher(cwd, args);
  t.after(() => watcher.kill());
  return watcher;
}

function writeScenario(cwd: string, scenarioTurns: readonly unknown[]): void {
  writeFileSync(join(cwd, SCENARIO), JSON.stringify({ flowName: "BasicFlow", turns: scenarioTurns }));
}

describe("flowcheck test --watch", { timeout: 4 * ROUND_MILLIS }, () => {
  test("says what it watches, plays the scenario again after each save of it, through an invalid save, until Ctrl-C", async (t) => {
    const project = await basicFlowProject({ "wick.scenario.json": { flowName: "BasicFlow", turns } });
    t.after(project.remove);
    const watcher = await watching(t, project.path, [SCENARIO]);
    const watched =
      "watching scenarios/wick.scenario.json, flows.ts, flowcheck.config.json — save to run again, Ctrl-C to stop";
    assert.match(await watcher.next(/--watch: watching/), new RegExp(`^flowcheck test --watch: ${watched}$`, "m"));
    const first = await watcher.next(/--watch: (passed|failed)/);
    assert.match(first, /^ok \d+ - BasicFlow: wick$/m, first);
    assert.match(first, new RegExp(`^flowcheck test --watch: passed; ${watched}$`, "m"));

    writeScenario(project.path, [{ ...turns[0], expectedActiveStep: "AddressStep" }]);
    const second = await watcher.next(/--watch: (passed|failed)/);
    assert.match(second, /^flowcheck test --watch: scenarios\/wick\.scenario\.json changed, running again$/m);
    assert.match(
      second,
      /turn 1 'name accepted': expected active step AddressStep, stored WeatherStep/,
      "the edited file was played",
    );
    assert.match(second, /--watch: failed \(exit 1\); watching/);

    writeFileSync(join(project.path, SCENARIO), '{ "flowName": "BasicFlow", "turns": [');
    const third = await watcher.next(/--watch: (passed|failed)/);
    assert.match(third, /not valid JSON/, third);
    assert.match(third, /--watch: failed \(exit 1\); watching scenarios\/wick\.scenario\.json/);

    writeScenario(project.path, turns);
    const fourth = await watcher.next(/--watch: (passed|failed)/);
    assert.match(fourth, /^ok \d+ - BasicFlow: wick$/m, fourth);
    assert.match(fourth, /--watch: passed; watching/);

    assert.equal(await watcher.interrupt(), 0, watcher.output);
    assert.deepEqual(watcher.leftBehind(), []);
  });

  test("what a round writes in a watched folder, and a write under test/.tmp, start no round; Ctrl-C in a round stops it, leaving no process", async (t) => {
    const project = await basicFlowProject({ "wick.scenario.json": { flowName: "BasicFlow", turns } });
    t.after(project.remove);
    mkdirSync(join(project.path, "test", "flows"), { recursive: true });
    writeFileSync(
      join(project.path, "test", "flows", "basic-flow.spec.ts"),
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};\n` +
        `import { registeredFlows } from "../../flows.ts";\n` +
        `describeFlowScenarios("BasicFlow", { flows: registeredFlows });\n`,
    );
    // test/ is a spec folder, watched whole: the round writes its results, transcripts and report in test/.tmp.
    const watcher = await watching(t, project.path, ["test"]);
    const first = await watcher.next(/--watch: (passed|failed)/);
    assert.match(
      first,
      /--watch: passed; watching scenarios\/wick\.scenario\.json, test\/flows\/basic-flow\.spec\.ts, /,
    );
    writeFileSync(join(project.path, "test", ".tmp", "notes.json"), "{}");
    writeFileSync(join(project.path, "scenarios", "wick.cassette.json"), "{}");
    await delay(1_000);
    assert.doesNotMatch(watcher.output, /running again/, watcher.output);

    writeScenario(project.path, [turns[0]]);
    await watcher.next(/--watch: scenarios\/wick\.scenario\.json changed, running again/);
    assert.equal(await watcher.interrupt(), 0, watcher.output);
    assert.deepEqual(watcher.leftBehind(), [], "the round's process group is gone with the watcher");
    assert.doesNotMatch(
      watcher.output.slice(first.length),
      /--watch: (passed|failed)/,
      "the round was stopped, not finished",
    );
  });
});
