import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { startLanggraphDevServer, type LanggraphDevServer } from "../support/langgraph-dev-server.ts";
import { npxFlowcheck } from "../support/npx-flowcheck.ts";
import { packedInstall, type PackedInstall } from "../support/packed-install.ts";

// A team's own repository, as the README's second path sets it up: the packed package installed as
// a dev dependency and nothing of this repository's, then `npx flowcheck …` there.
const SCENARIOS = resolve(import.meta.dirname, "..", "fixtures", "langgraph-scenarios", "passing");

describe("a LangGraph project with flowcheck installed: only its config and scenarios", () => {
  let server: LanggraphDevServer | undefined;
  let project: PackedInstall | undefined;

  before(async () => {
    [server, project] = await Promise.all([startLanggraphDevServer(), packedInstall()]);
    const chat = { step: "/step", completed: "/done", steps: ["NameStep", "EmailStep", "DoneStep"] };
    const config = {
      $schema: "./node_modules/flowcheck/dist/flowcheck.config.schema.json",
      targets: { graphs: { kind: "langgraph", baseUrl: server.baseUrl, graphs: { chat } } },
    };
    writeFileSync(join(project.project, "flowcheck.config.json"), `${JSON.stringify(config, null, 2)}\n`);
    mkdirSync(join(project.project, "scenarios"));
    for (const file of readdirSync(SCENARIOS)) {
      const scenario = JSON.parse(readFileSync(join(SCENARIOS, file), "utf8")) as Record<string, unknown>;
      const schema = "../node_modules/flowcheck/dist/scenarios/scenario.schema.json";
      writeFileSync(
        join(project.project, "scenarios", file),
        `${JSON.stringify({ $schema: schema, ...scenario }, null, 2)}\n`,
      );
    }
  });

  after(async () => {
    await project?.remove();
    await server?.close();
  });

  test("npx flowcheck test plays scenarios/ against the dev server: green, every persisted check passed, the report written there", async () => {
    const run = await npxFlowcheck(project!, ["test"], { FLOW_TARGET: "graphs" });
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const artifacts = join(project!.project, "test", ".tmp");
    const results = JSON.parse(readFileSync(join(artifacts, "run-results.json"), "utf8")) as RunResults;
    assert.deepEqual(results.conversations.map((conversation) => conversation.name).sort(), ["chat", "intake"], output);
    for (const conversation of results.conversations) {
      assert.equal(conversation.outcome, "passed", conversation.reason);
      assert.equal(conversation.target?.baseUrl, server!.baseUrl);
      for (const turn of conversation.turns) {
        const persisted = turn.checks.filter((check) => check.contract === "persisted");
        assert.ok(
          persisted.some((check) => check.outcome === "passed"),
          `${conversation.name}/${turn.label}: no persisted check passed`,
        );
        assert.deepEqual(
          persisted.filter((check) => check.outcome === "failed"),
          [],
          `${conversation.name}/${turn.label}`,
        );
      }
    }
    assert.ok(
      readFileSync(join(artifacts, "report.html"), "utf8").includes("intake"),
      "report.html names the conversations",
    );
    assert.match(output, /^2 conversations: 2 passed, 0 failed/m);
  });
});

describe("npx flowcheck init, and a run on two processes, in a project with only the package installed", () => {
  let project: PackedInstall;

  before(async () => {
    project = await packedInstall();
  });

  after(() => project?.remove());

  test("writes a config and a first scenario that npx flowcheck check accepts, and the two npm scripts", async () => {
    const init = await npxFlowcheck(project, ["init"]);
    assert.equal(init.code, 0, init.stdout + init.stderr);
    const config = JSON.parse(readFileSync(join(project.project, "flowcheck.config.json"), "utf8")) as {
      $schema: string;
    };
    // Each $schema names the schema the installed package ships, so an editor finds it.
    assert.equal(config.$schema, "./node_modules/flowcheck/dist/flowcheck.config.schema.json");
    assert.ok(existsSync(join(project.project, config.$schema)));
    const scenario = JSON.parse(readFileSync(join(project.project, "scenarios", "first.scenario.json"), "utf8")) as {
      $schema: string;
    };
    assert.ok(existsSync(join(project.project, "scenarios", scenario.$schema)), scenario.$schema);
    const { scripts } = JSON.parse(readFileSync(join(project.project, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    assert.deepEqual(scripts, {
      "test:flows": "flowcheck test",
      "flows:check": "flowcheck check",
      "judge:label": "flowcheck judge label",
      "judge:calibrate": "flowcheck judge calibrate",
    });
    const check = await npxFlowcheck(project, ["check"]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /^1 valid, 0 invalid$/m);
  });

  test("a second init refuses and changes nothing", async () => {
    const files = ["flowcheck.config.json", join("scenarios", "first.scenario.json"), "package.json"];
    const before = files.map((file) => readFileSync(join(project.project, file), "utf8"));
    const again = await npxFlowcheck(project, ["init"]);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    assert.match(again.stderr, /nothing was written/);
    assert.deepEqual(
      files.map((file) => readFileSync(join(project.project, file), "utf8")),
      before,
    );
  });

  test("the package's own worker process plays half the spec files, and the run tells both halves as one", async () => {
    const specs = join(project.project, "specs");
    mkdirSync(specs);
    for (const name of ["first", "second"]) {
      writeFileSync(
        join(specs, `${name}.spec.ts`),
        `import { appendFileSync } from "node:fs";\nimport { test } from "node:test";\n` +
          `test("${name}", () => appendFileSync("pids.txt", process.pid + "\\n"));\n`,
      );
    }

    const run = await npxFlowcheck(project, ["test", "specs", "--workers", "2"]);

    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ℹ tests 2$/m);
    const pids = readFileSync(join(project.project, "pids.txt"), "utf8").trim().split("\n");
    assert.equal(new Set(pids).size, 2);
  });
});
