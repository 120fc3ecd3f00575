import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT, runFlowcheck } from "../support/child-run.ts";

const flowcheck = (...args: string[]) => runFlowcheck(args);

/** Every command and the first line of its usage. */
const USAGES = {
  test: /^Usage: flowcheck test \[<folder\|spec file\|scenario file or folder>\.\.\.\] \[options\]$/m,
  check: /^Usage: flowcheck check \[<file or folder>\.\.\.\]$/m,
  transcript: /^Usage: flowcheck transcript <test\/\.tmp\/…-failure\.json>$/m,
  strength: /^Usage: flowcheck strength \[<scenario file or folder>\.\.\.\]$/m,
  report: /^Usage: flowcheck report <results files or folders>\.\.\. /m,
  merge: /^Usage: flowcheck merge <results files or folders>\.\.\. /m,
  record: /^Usage: flowcheck record <FlowName> \[--dir <folder>\]$/m,
  "from-session": /^Usage: flowcheck from-session <session id> /m,
  "from-results": /^Usage: flowcheck from-results <conversation id> /m,
  serve: /^Usage: flowcheck serve$/m,
};

// Every run is a child of its own that reads nothing but the repository's files, so they run side by side.
describe("flowcheck as a command", { concurrency: 4 }, () => {
  test("with no command, help or --help it lists every command with its summary, and exits 0", async () => {
    for (const args of [[], ["help"], ["--help"]]) {
      const run = await flowcheck(...args);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Usage: flowcheck <command> /);
      for (const command of [...Object.keys(USAGES), "init"])
        assert.match(run.stdout, new RegExp(`^ {2}${command} +\\w`, "m"), `${command} in ${args.join(" ")}`);
    }
  });

  for (const [command, usage] of Object.entries(USAGES)) {
    test(`flowcheck ${command} answers --help and -h with its usage and exit 0, taking neither for a file`, async () => {
      for (const flag of ["--help", "-h"]) {
        const run = await flowcheck(command, flag);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, usage);
      }
    });
  }

  test("a mistyped command exits 2, naming it, the command it most likely meant and every command", async () => {
    const run = await flowcheck("tets", "test/flows");
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^flowcheck: unknown command "tets"\. Did you mean "test"\?$/m);
    for (const command of Object.keys(USAGES)) assert.match(run.stderr, new RegExp(`^ {2}${command} `, "m"));
  });

  test("a command like none of them is named without a guess", async () => {
    const run = await flowcheck("zzzzzz");
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^flowcheck: unknown command "zzzzzz"\.$/m);
  });

  test("--version prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const run = await flowcheck("--version");
    assert.deepEqual(run, { code: 0, stdout: `${version}\n`, stderr: "" });
  });
});
