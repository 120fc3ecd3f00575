import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// A project with one scenario file on the target "support" and the given flowcheck.config.json,
// where nothing listens: a run that played anything would fail otherwise than the config's error.
async function project(t: TestContext, config: unknown): Promise<string> {
  const dir = await tempDir("test-command-invalid-config");
  t.after(() => dir.remove());
  mkdirSync(join(dir.path, "conversations"));
  const turn = { label: "greets", input: "hi", expectedActiveStep: "greet" };
  writeFileSync(
    join(dir.path, "conversations", "greets.scenario.json"),
    JSON.stringify({ flowName: "chat", target: "support", turns: [turn] }),
  );
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify(config));
  return dir.path;
}

function runSpecs(cwd: string, env: Record<string, string> = {}): Promise<ChildRun> {
  return runFlowcheck(["test", "conversations"], env, undefined, cwd);
}

/** The run stopped before playing anything, saying so once on stderr, with no stack trace. */
function assertStoppedOnce(run: ChildRun, cwd: string, code: string): void {
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 2, output);
  assert.equal(run.stdout, "", "nothing was played or summed up");
  assert.equal(output.split(code).length - 1, 1, `${code} is said once: ${output}`);
  assert.match(run.stderr, new RegExp(`^flowcheck test: stopped before playing anything: ${code}: `));
  assert.doesNotMatch(output, /^\s+at /m, "no stack trace");
  assert.equal(
    existsSync(join(cwd, "test", ".tmp", "run-results.json")),
    false,
    "no results of a run that did not run",
  );
}

const support = {
  kind: "http",
  baseUrl: "http://127.0.0.1:9",
  turn: { path: "/chat", body: { message: "{{input}}" } },
  answer: { text: "/reply" },
};

test("an invalid flowcheck.config.json stops flowcheck test before it plays anything, saying once which file, which keys and what to write", async (t) => {
  const cwd = await project(t, {
    targets: { support: { ...support, timeoutMS: 5000, headers: { "x-api-key": "${SUPPORT_KEY}" } } },
  });
  const run = await runSpecs(cwd);
  assertStoppedOnce(run, cwd, "target_config_invalid");
  assert.match(
    run.stderr,
    /flowcheck\.config\.json is not a valid flowcheck\.config\.json \(2 problems\); no scenario was run:/,
  );
  assert.match(run.stderr, /^- targets\.support\.timeoutMS\b.*timeoutMs/m);
  assert.match(run.stderr, /^- targets\.support\.headers\.x-api-key\b.*SUPPORT_KEY/m);
});

test("a FLOW_TARGET that names no target of flowcheck.config.json stops flowcheck test before it plays anything, with the name meant", async (t) => {
  const cwd = await project(t, { targets: { support } });
  const run = await runSpecs(cwd, { FLOW_TARGET: "suport" });
  assertStoppedOnce(run, cwd, "target_config_invalid");
  assert.match(run.stderr, /FLOW_TARGET=suport .*names no target of flowcheck\.config\.json; did you mean "support"\?/);
  assert.match(run.stderr, /use one of those names, or add "suport" to its "targets"\.$/m);
});

test("an environment that does not read stops flowcheck test before it plays anything, every problem in one config_invalid", async (t) => {
  const cwd = await project(t, { targets: { support } });
  const run = await runSpecs(cwd, { FLOW_TARGET: "support", FLOW_BASE_URL: "http://127.0.0.1:9", FLOW_REPEAT: "none" });
  assertStoppedOnce(run, cwd, "config_invalid");
  assert.match(run.stderr, /The environment is not valid:\n/);
  assert.match(run.stderr, /^- FLOW_REPEAT="none" is not valid: /m);
  assert.match(run.stderr, /^- FLOW_TARGET=support and FLOW_BASE_URL=http:\/\/127\.0\.0\.1:9 both name the server/m);
});
