import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ROOT } from "../support/child-run.ts";
import { packedInstall, type PackedInstall } from "../support/packed-install.ts";

// flowcheck as a team installs it (`npm i -D flowcheck`, here the tarball `npm pack` makes) and
// uses it on plain Node: one pack and one offline install, shared by every test below.

let installed: PackedInstall;

before(async () => {
  installed = await packedInstall();
});

after(() => installed?.remove());

/** What a script run by plain `node` (no tsx, no loader) in the project printed as JSON. */
async function nodeResult(script: string): Promise<Record<string, unknown>> {
  const run = await installed.run(process.execPath, ["--input-type=module", "-e", script]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("the packed package", () => {
  test("installs offline from the locked entries alone, neither store driver among what it brings", (t) => {
    t.diagnostic(`npm install took ${(installed.installMs / 1000).toFixed(1)} s`);
    t.diagnostic(`node_modules holds ${(installed.nodeModulesBytes / 2 ** 20).toFixed(1)} MiB`);
    for (const driver of ["better-sqlite3", "mongodb"])
      assert.equal(existsSync(join(installed.project, "node_modules", driver)), false, `${driver} was installed`);
    assert.ok(existsSync(join(installed.project, "node_modules", "flowcheck", "package.json")));
  });

  test("holds the built code, its declarations, the two schemas and the README, and no source, test or demo flow", () => {
    const files = installed.tarballFiles;
    const outside = files.filter(
      (file) => !file.startsWith("package/dist/") && !["package/package.json", "package/README.md"].includes(file),
    );
    assert.deepEqual(outside, [], "files outside dist/");
    assert.deepEqual(
      files.filter((file) => file.startsWith("package/dist/") && !/\.(js|mjs|d\.ts|d\.mts)$/.test(file)).sort(),
      ["package/dist/flowcheck.config.schema.json", "package/dist/scenarios/scenario.schema.json"],
      "dist holds other files than code, declarations and the two schemas",
    );
    for (const file of ["src/index.js", "src/index.d.ts", "src/testing/index.js", "src/testing/index.d.ts"])
      assert.ok(files.includes(`package/dist/${file}`), `the tarball lacks dist/${file}`);
    const flows = files.filter((file) => file.startsWith("package/dist/src/flows/"));
    assert.equal(flows.length, 0, `${flows.length} files of the demo flows are packed, e.g. ${flows[0]}`);
  });

  test("holds the file its flowcheck command runs", () => {
    const { bin } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: { flowcheck: string } };
    assert.ok(installed.tarballFiles.includes(join("package", bin.flowcheck)), `the tarball lacks ${bin.flowcheck}`);
  });

  test("loads in plain node: flowcheck, flowcheck/testing and both schemas, without loading a store driver", async () => {
    const loaded = await nodeResult(`
      const main = await import("flowcheck");
      const testing = await import("flowcheck/testing");
      const config = await import("flowcheck/flowcheck.config.schema.json", { with: { type: "json" } });
      const scenario = await import("flowcheck/scenario.schema.json", { with: { type: "json" } });
      console.log(JSON.stringify({
        main: Object.keys(main), testing: Object.keys(testing),
        schemas: [typeof config.default.$schema, typeof scenario.default.$schema],
      }));
    `);
    const { main, testing } = loaded as { main: string[]; testing: string[] };
    for (const name of ["defineFlow", "Step", "tool", "createApp", "serve", "loadConfig", "SqliteSessionStore"])
      assert.ok(main.includes(name), `flowcheck lacks ${name}`);
    assert.equal(main.includes("registeredFlows"), false, "flowcheck exports the demo flows");
    const testingNames = ["describeFlowScenarios", "runScenario", "loadScenario", "discoverScenarios", "ScenarioRun"];
    // A served app's scripts are written with these, from flowcheck/testing beside the scenarios.
    for (const name of [...testingNames, "scriptedText", "scriptedToolCalls"])
      assert.ok(testing.includes(name), `flowcheck/testing lacks ${name}`);
    assert.deepEqual(loaded["schemas"], ["string", "string"]);
  });

  test("a SQLite or MongoDB store without its driver fails with store_driver_missing, naming the setting and the install command", async () => {
    const failures = await nodeResult(`
      const { createApp, loadConfig, SqliteSessionStore } = await import("flowcheck");
      const failure = (error) => ({ code: error.code, message: error.message });
      const result = {};
      try { new SqliteSessionStore(":memory:"); } catch (error) { result.sqlite = failure(error); }
      const config = loadConfig({ SESSION_STORE: "MONGO", MONGO_URL: "mongodb://127.0.0.1:9" });
      await createApp({ flows: [], config }).catch((error) => { result.mongo = failure(error); });
      console.log(JSON.stringify(result));
    `);
    const { sqlite, mongo } = failures as Record<string, { code: string; message: string }>;
    assert.equal(sqlite?.code, "store_driver_missing");
    assert.match(sqlite.message, /SESSION_STORE=SQLITE.*better-sqlite3.*npm i -D better-sqlite3/);
    assert.equal(mongo?.code, "store_driver_missing");
    assert.match(mongo.message, /SESSION_STORE=MONGO.*mongodb.*npm i -D mongodb/);
  });

  test("a consumer's TypeScript importing flowcheck and flowcheck/testing typechecks against the declarations", async () => {
    const compilerOptions = {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      // The package's own declarations are checked too, as a consumer's stricter setting does.
      skipLibCheck: false,
      types: ["node"],
    };
    writeFileSync(join(installed.project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["check.ts"] }));
    writeFileSync(
      join(installed.project, "check.ts"),
      [
        'import { createApp, loadConfig, SqliteSessionStore, type App, type FlowcheckError } from "flowcheck";',
        'import { describeFlowScenarios, runScenario, type Scenario, type SessionDocument } from "flowcheck/testing";',
        "export const app: Promise<App> = createApp({ flows: [], config: loadConfig({}), store: new SqliteSessionStore(':memory:') });",
        "export const tools = [describeFlowScenarios, runScenario] as const;",
        "export type Seen = [Scenario, SessionDocument, FlowcheckError['code']];",
        "",
      ].join("\n"),
    );
    const run = await installed.run(join(ROOT, "node_modules", ".bin", "tsc"), ["--project", "tsconfig.json"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });
});
