import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { NODE_FLOOR, NODE_LINES, unsupportedNode } from "../../src/cli/supported-node.mjs";
import { ROOT, runCommand } from "../support/child-run.ts";

const CHECK = ["--import", "./src/cli/supported-node.mjs"];
const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

// The Node 20 this proves the refusal with: the machine's own, still the default here and on CI.
const OLD_NODE = "/usr/bin/node";
const oldVersion = existsSync(OLD_NODE)
  ? execFileSync(OLD_NODE, ["--version"], { encoding: "utf8" }).trim().slice(1)
  : undefined;
const noOldNode =
  oldVersion === undefined
    ? `there is no ${OLD_NODE}`
    : oldVersion.startsWith("20.")
      ? false
      : `${OLD_NODE} is Node ${oldVersion}, not 20`;

test("on Node 20 the check prints one line naming the floor, the lines and the running version, and exits 1", {
  skip: noOldNode,
}, async () => {
  const run = await runCommand(OLD_NODE, [...CHECK, "-e", "console.log('not reached')"]);
  assert.deepEqual(run, {
    code: 1,
    stdout: "",
    stderr: `flowcheck needs Node 22.18 or later (22, 24 or 26); this is ${oldVersion}\n`,
  });
});

test("on Node 20 an npm script's tsx, as package.json runs it, prints that one line and no stack", {
  skip: noOldNode,
}, async () => {
  const run = await runCommand(OLD_NODE, [
    join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
    ...CHECK,
    "src/cli/new-flow.ts",
  ]);
  assert.deepEqual(run, {
    code: 1,
    stdout: "",
    stderr: `flowcheck needs Node 22.18 or later (22, 24 or 26); this is ${oldVersion}\n`,
  });
});

test("on Node 20 flowcheck itself, as package.json and the package's bin run it, prints that one line and no stack", {
  skip: noOldNode,
}, async () => {
  const run = await runCommand(OLD_NODE, [join(ROOT, "src", "cli", "flowcheck.mjs"), "test", "--help"]);
  assert.deepEqual(run, {
    code: 1,
    stdout: "",
    stderr: `flowcheck needs Node 22.18 or later (22, 24 or 26); this is ${oldVersion}\n`,
  });
});

test("on the Node running this the check is silent and the program runs", async () => {
  const run = await runCommand(process.execPath, [...CHECK, "-e", "console.log('ran')"]);
  assert.deepEqual(run, { code: 0, stdout: "ran\n", stderr: "" });
});

test("the floor is 22.18: 22.17 and 20 are refused, 22.18, 23 and 26 pass", () => {
  assert.equal(unsupportedNode("20.20.2"), "flowcheck needs Node 22.18 or later (22, 24 or 26); this is 20.20.2");
  assert.match(unsupportedNode("22.17.1") ?? "", /this is 22\.17\.1$/);
  for (const version of ["22.18.0", "22.23.5", "23.0.0", "24.22.3", "26.12.1"])
    assert.equal(unsupportedNode(version), undefined, version);
});

test("package.json's engines floor and Node lines are the check's", () => {
  const engines = packageJson.engines.node;
  assert.equal(/^\^(\d+\.\d+) /.exec(engines)?.[1], NODE_FLOOR.join("."), `engines.node is ${engines}`);
  assert.deepEqual(
    [...engines.matchAll(/\^(\d+)/g)].map((match) => Number(match[1])),
    NODE_LINES,
  );
});

test("every npm script that runs flowcheck's code checks the Node first: flowcheck's own entry, the others by preloading it", () => {
  const entry = readFileSync(join(ROOT, "src", "cli", "flowcheck.mjs"), "utf8");
  assert.match(entry, /^#!\/usr\/bin\/env node\n/, "flowcheck.mjs is the package's bin");
  assert.match(
    entry.split("\n").find((line) => line.startsWith("import ")) ?? "",
    /^import "\.\/supported-node\.mjs";$/,
    "flowcheck.mjs imports the check before anything else",
  );
  for (const [name, script] of Object.entries(packageJson.scripts)) {
    // The typecheck, the formatter and the build (which prepack runs) run no code of ours.
    if (["typecheck", "format", "build", "prepack"].includes(name)) continue;
    // test:strength measures the scenarios rather than running them.
    if (name === "test" || name.startsWith("test:"))
      assert.match(script, /node src\/cli\/flowcheck\.mjs (test |strength$)/, `${name}: ${script}`);
    else
      assert.match(
        script,
        /^(node src\/cli\/flowcheck\.mjs |(node|tsx) --import \.\/src\/cli\/supported-node\.mjs )/,
        `${name}: ${script}`,
      );
  }
});
