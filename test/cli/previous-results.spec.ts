import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { ROOT, runCommand } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// GitHub cannot be reached from here: a stub `gh` on the PATH plays the GitHub CLI, answering
// `gh run list` with the run id it is given (or nothing) and `gh run download` by writing the
// artifact's run-results.json into --dir (or failing), and logs every call it gets.

const SCRIPT = join(ROOT, ".github", "scripts", "previous-results.sh");
const NONE = "No earlier successful run of this workflow on main to compare with.";

interface Stub {
  /** What `gh run list … --jq` prints: a run id, or nothing. */
  runId: string;
  /** Whether `gh run download` finds the artifact. */
  artifact: boolean;
}

async function previousResults({ runId, artifact }: Stub) {
  const dir = await tempDir("previous-results");
  const bin = join(dir.path, "bin");
  const gh = join(bin, "gh");
  writeFileSync(join(dir.path, "summary.md"), "");
  writeFileSync(join(dir.path, "output"), "");
  mkdirSync(bin);
  writeFileSync(
    gh,
    `#!/bin/sh\necho "$*" >> "${join(dir.path, "gh.log")}"\n` +
      `if [ "$1 $2" = "run list" ]; then ${runId ? `echo ${runId}` : "true"}; exit 0; fi\n` +
      (artifact
        ? `while [ "$1" != "--dir" ]; do shift; done\nmkdir -p "$2" && echo '{"results":1}' > "$2/run-results.json"\n`
        : `echo "no artifact matches any of the names or patterns provided" >&2\nexit 1\n`),
  );
  chmodSync(gh, 0o755);
  const run = await runCommand(
    "bash",
    [SCRIPT, "previous"],
    {
      PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}`,
      GH_TOKEN: "stub",
      GITHUB_REF_NAME: "main",
      GITHUB_OUTPUT: join(dir.path, "output"),
      GITHUB_STEP_SUMMARY: join(dir.path, "summary.md"),
    },
    undefined,
    dir.path,
  );
  const read = (name: string) => (existsSync(join(dir.path, name)) ? readFileSync(join(dir.path, name), "utf8") : "");
  return { run, dir, output: read("output"), summary: read("summary.md"), calls: read("gh.log").trim().split("\n") };
}

test("the last successful run on the branch found, its live-results are downloaded into the folder and the step's output names the file", async () => {
  const { run, dir, output, summary, calls } = await previousResults({ runId: "4242", artifact: true });
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.equal(output, "results=previous/run-results.json\n");
    assert.ok(existsSync(join(dir.path, "previous", "run-results.json")));
    assert.equal(summary, "");
    assert.deepEqual(calls, [
      "run list --workflow live.yml --branch main --status success --limit 1 --json databaseId --jq .[0].databaseId // empty",
      "run download 4242 --name live-results --dir previous",
    ]);
  } finally {
    dir.remove();
  }
});

test("with no earlier successful run, or its artifact gone, the job summary says so in one line and the output is empty", async () => {
  for (const stub of [
    { runId: "", artifact: true },
    { runId: "4242", artifact: false },
  ]) {
    const { run, dir, output, summary, calls } = await previousResults(stub);
    try {
      assert.equal(run.code, 0, run.stderr);
      assert.equal(output, "results=\n");
      assert.equal(summary, `${NONE}\n`);
      assert.equal(existsSync(join(dir.path, "previous", "run-results.json")), false);
      assert.equal(calls.length, stub.runId ? 2 : 1, calls.join("\n"));
    } finally {
      dir.remove();
    }
  }
});
