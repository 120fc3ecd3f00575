import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runFlowcheck } from "../support/child-run.ts";
import { closedPort } from "../support/loopback-server.ts";
import { tempDir } from "../support/temp-path.ts";

/** A project of its own: flowcheck.config.json with `targets`, and `scenarios` under conversations/. */
async function project(targets: object, scenarios: Record<string, object>) {
  const dir = await tempDir("check-scenarios-targets");
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  mkdirSync(join(dir.path, "conversations"));
  for (const [name, scenario] of Object.entries(scenarios))
    writeFileSync(join(dir.path, "conversations", `${name}.scenario.json`), JSON.stringify(scenario));
  return dir;
}

/** An http target whose entry lists the steps of its flow `support`. */
const SUPPORT_API = {
  kind: "http",
  baseUrl: "http://127.0.0.1:9",
  turn: { path: "/chat", body: { text: "{{input}}" } },
  answer: {},
  flows: { support: { steps: ["greet", "ticket"] } },
};

function checkScenarios(cwd: string, env: Record<string, string> = {}) {
  return runFlowcheck(["check", "conversations"], env, undefined, cwd);
}

test("scenarios:check checks an http target's scenarios against the steps its entry lists, and says when a LangGraph target cannot be reached", async (t) => {
  const port = await closedPort();
  const dir = await project(
    {
      api: SUPPORT_API,
      down: { kind: "langgraph", baseUrl: `http://127.0.0.1:${port}` },
    },
    {
      asks: {
        flowName: "support",
        target: "api",
        turns: [{ label: "hello", input: "hi", expectedActiveStep: "greet" }],
      },
      misspelt: {
        flowName: "support",
        target: "api",
        turns: [{ label: "hello", input: "hi", expectedActiveStep: "gret" }],
      },
      offline: { flowName: "intake", turns: [{ label: "hello", input: "hi", expectedActiveStep: "name_step" }] },
    },
  );
  t.after(dir.remove);
  const check = await checkScenarios(dir.path, { FLOW_TARGET: "down" });
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.match(check.stdout, /^ok {4}conversations\/asks\.scenario\.json \(support, 1 turns; target api\)$/m);
  assert.match(
    check.stdout,
    /^fail {2}.*misspelt\.scenario\.json[\s\S]*?"gret" is not a step of support of target api \(http:\/\/127\.0\.0\.1:9\); did you mean greet\?/m,
  );
  assert.match(
    check.stdout,
    new RegExp(
      `^ok {4}conversations/offline\\.scenario\\.json \\(intake, 1 turns; target down, not reachable, so its step names were not checked: GET http://127\\.0\\.0\\.1:${port}/`,
      "m",
    ),
  );
  assert.match(check.stdout, /^2 valid, 1 invalid$/m);
});

test("scenarios:check fails a scenario that names a target the config lacks, listing the names it has", async (t) => {
  const dir = await project(
    { api: { kind: "flowcheck", baseUrl: "http://127.0.0.1:9" } },
    {
      stray: {
        flowName: "Elsewhere",
        target: "apj",
        turns: [{ label: "hello", input: "hi", expectedActiveStep: "Greet" }],
      },
    },
  );
  t.after(dir.remove);
  const check = await checkScenarios(dir.path);
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.match(
    check.stdout,
    /^fail {2}conversations\/stray\.scenario\.json: "target": "apj" names no target of flowcheck\.config\.json; did you mean "api"\?/m,
  );
  assert.match(check.stdout, /^0 valid, 1 invalid$/m);
});

test("scenarios:check accepts a simulated user without turns, and lists every problem of one without success", async (t) => {
  const dir = await project(
    {
      api: SUPPORT_API,
    },
    {
      simulated: {
        flowName: "support",
        target: "api",
        user: { persona: "A customer whose parcel is late", goal: "Get a ticket opened", style: "rule-bender" },
        success: { responseMustInclude: ["ticket"] },
      },
      unfinished: {
        flowName: "support",
        target: "api",
        turns: [{ label: "hello", input: "hi", expectedActiveStep: "greet" }],
        user: { persona: "A customer", goal: "Get a ticket opened", stile: "terse" },
      },
    },
  );
  t.after(dir.remove);
  const check = await checkScenarios(dir.path);
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.match(
    check.stdout,
    /^ok {4}conversations\/simulated\.scenario\.json \(support, 0 opening turns, a simulated user \(rule-bender\); target api\)$/m,
  );
  assert.match(
    check.stdout,
    /^fail {2}conversations\/unfinished\.scenario\.json is not a valid scenario \(2 problems\); no turn was run:\n- user\.stile: `stile` is not a known key; did you mean `style`\?\n- user: needs `success` beside it: a simulated conversation must say what success is: add `success` /m,
  );
  assert.match(check.stdout, /^1 valid, 1 invalid$/m);
});
