import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { INIT_USAGE, initCommand } from "../../src/cli/init-command.ts";
import { loadScenario } from "../../src/testing/scenario/load-scenario.ts";
import { listedFlowOutline } from "../../src/testing/target/flow-outline-of.ts";
import { loadTargetConfig } from "../../src/testing/target/target-config.ts";
import { ROOT } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

const CONFIG = "flowcheck.config.json";
const SCENARIO = join("scenarios", "first.scenario.json");

/** An empty folder, removed after the test. */
async function folder(t: TestContext): Promise<string> {
  const dir = await tempDir("init-command");
  t.after(dir.remove);
  return dir.path;
}

/** `flowcheck init <args>` in `cwd`, what it printed on stdout and stderr. */
async function init(t: TestContext, cwd: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = t.mock.method(console, "log", (line: string) => out.push(line));
  const error = t.mock.method(console, "error", (line: string) => err.push(line));
  try {
    const code = await initCommand(args, cwd);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

/** Every file under `dir`, by relative path, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [relative(dir, path), readFileSync(path, "utf8")];
    }),
  );
}

const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

describe("flowcheck init", () => {
  for (const kind of ["http", "langgraph", "flowcheck"]) {
    test(`--kind ${kind} writes a config whose one target loads with no variable set, and a scenario the loader accepts against it`, async (t) => {
      const cwd = await folder(t);
      const run = await init(t, cwd, "--kind", kind);
      assert.equal(run.code, 0, run.stderr);
      const config = loadTargetConfig(cwd, {});
      const entry = config?.targets["app"];
      assert.equal(entry?.kind, kind);
      const flowName = json(join(cwd, SCENARIO))["flowName"] as string;
      const outline = listedFlowOutline("app", entry!, flowName);
      const { scenario } = loadScenario(join(cwd, SCENARIO), [], { outline });
      assert.equal(scenario.target, "app");
      assert.ok(scenario.turns.length >= 1 && scenario.turns.length <= 2);
      // Each $schema names the schema this code ships, from the file's own folder.
      assert.equal(join(cwd, json(join(cwd, CONFIG))["$schema"] as string), join(ROOT, "flowcheck.config.schema.json"));
      const scenarioSchema = json(join(cwd, SCENARIO))["$schema"] as string;
      assert.equal(join(cwd, "scenarios", scenarioSchema), join(ROOT, "scenarios", "scenario.schema.json"));
      assert.match(run.stdout, new RegExp(`flowcheck\\.config\\.json +the target "app" \\(${kind}\\) to fill in`));
      assert.match(run.stdout, /npx flowcheck check/);
      assert.match(run.stdout, /npx flowcheck test/);
    });
  }

  test("without --kind the target is an http one", async (t) => {
    const cwd = await folder(t);
    assert.equal((await init(t, cwd)).code, 0);
    assert.equal(loadTargetConfig(cwd, {})?.targets["app"]?.kind, "http");
  });

  test("with a package.json, the scripts are added and every other key kept, in 2-space JSON and a newline", async (t) => {
    const cwd = await folder(t);
    const manifest = {
      name: "shop",
      version: "1.2.0",
      scripts: { build: "tsc" },
      devDependencies: { flowcheck: "^0.1.0" },
    };
    writeFileSync(join(cwd, "package.json"), JSON.stringify(manifest));
    const run = await init(t, cwd);
    assert.equal(run.code, 0, run.stderr);
    const scripts = {
      build: "tsc",
      "test:flows": "flowcheck test",
      "flows:check": "flowcheck check",
      "judge:label": "flowcheck judge label",
      "judge:calibrate": "flowcheck judge calibrate",
    };
    assert.equal(
      readFileSync(join(cwd, "package.json"), "utf8"),
      `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`,
    );
    assert.match(run.stdout, /package\.json +the scripts test:flows, flows:check, judge:label and judge:calibrate$/m);
  });

  test("without a package.json, the script lines to add are printed and no package.json is written", async (t) => {
    const cwd = await folder(t);
    const run = await init(t, cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(cwd, "package.json")), false);
    assert.match(run.stdout, /^ +"test:flows": "flowcheck test",$/m);
    assert.match(run.stdout, /^ +"flows:check": "flowcheck check",$/m);
    assert.match(run.stdout, /^ +"judge:label": "flowcheck judge label",$/m);
    assert.match(run.stdout, /^ +"judge:calibrate": "flowcheck judge calibrate",$/m);
  });

  test("a second init writes nothing, byte for byte, exits 1 and names each file and script in the way", async (t) => {
    const cwd = await folder(t);
    writeFileSync(join(cwd, "package.json"), `${JSON.stringify({ name: "shop" }, null, 2)}\n`);
    assert.equal((await init(t, cwd)).code, 0);
    const before = snapshot(cwd);
    const again = await init(t, cwd, "--kind", "langgraph");
    assert.equal(again.code, 1);
    assert.deepEqual(snapshot(cwd), before);
    assert.equal(again.stdout, "");
    assert.match(again.stderr, /^flowcheck init: nothing was written/);
    assert.match(again.stderr, /flowcheck\.config\.json exists: add a target to it by hand/);
    assert.match(again.stderr, /scenarios\/first\.scenario\.json exists: rename it, or move it away/);
    assert.match(again.stderr, /package\.json has a script "test:flows" already \("flowcheck test"\)/);
    assert.match(again.stderr, /package\.json has a script "flows:check" already/);
    assert.match(again.stderr, /package\.json has a script "judge:calibrate" already/);
  });

  test("a folder with only the scenario in the way is refused too, and nothing else is written", async (t) => {
    const cwd = await folder(t);
    mkdirSync(join(cwd, "scenarios"));
    writeFileSync(join(cwd, SCENARIO), "{}\n");
    writeFileSync(join(cwd, "package.json"), '{ "name": "shop" }\n');
    const before = snapshot(cwd);
    const run = await init(t, cwd);
    assert.equal(run.code, 1);
    assert.deepEqual(snapshot(cwd), before);
    assert.match(run.stderr, /as one thing is in the way:\n {2}scenarios\/first\.scenario\.json exists/);
  });

  test("--help prints the usage and exits 0; an unknown kind or argument exits 2 and writes nothing", async (t) => {
    const cwd = await folder(t);
    const help = await init(t, cwd, "--help");
    assert.equal(help.code, 0);
    assert.equal(help.stdout, INIT_USAGE);
    assert.match(INIT_USAGE, /^Usage: flowcheck init \[--kind http\|langgraph\|flowcheck\]/);
    const wrongKind = await init(t, cwd, "--kind=openai");
    assert.equal(wrongKind.code, 2);
    assert.match(wrongKind.stderr, /--kind takes http, langgraph, flowcheck, not "openai"/);
    assert.equal((await init(t, cwd, "--force")).code, 2);
    assert.deepEqual(readdirSync(cwd), []);
  });
});
