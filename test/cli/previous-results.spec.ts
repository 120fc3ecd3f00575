import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { ROOT, runCommand } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// GitHub cannot be reached from here: a stub `gh` on the PATH plays the GitHub CLI, answering
// `gh run list` with the run ids it is given, newest first, and `gh run download <id>` by writing
// the artifact's run-results.json into --dir for the ids that have one (else failing), and logs
// every call it gets.

const SCRIPT = join(ROOT, ".github", "scripts", "previous-results.sh");
const NONE = "No earlier run of this workflow on main left merged results to compare with.";

interface Stub {
  /** What `gh run list … --jq` prints: run ids, newest first. */
  runIds: string[];
  /** The runs whose live-results artifact `gh run download` finds. */
  withResults: string[];
}

async function previousResults({ runIds, withResults }: Stub) {
  const dir = await tempDir("previous-results");
  const bin = join(dir.path, "bin");
  const gh = join(bin, "gh");
  writeFileSync(join(dir.path, "summary.md"), "");
  writeFileSync(join(dir.path, "output"), "");
  mkdirSync(bin);
  writeFileSync(
    gh,
    `#!/bin/sh\necho "$*" >> "${join(dir.path, "gh.log")}"\n` +
      `if [ "$1 $2" = "run list" ]; then printf '%s\\n' ${runIds.join(" ")}; exit 0; fi\n` +
      `case "$3" in ${withResults.map((id) => `${id}) ;;`).join(" ")} *) echo "no artifact matches any of the names or patterns provided" >&2; exit 1 ;; esac\n` +
      `while [ "$1" != "--dir" ]; do shift; done\nmkdir -p "$2" && echo '{"results":1}' > "$2/run-results.json"\n`,
  );
  chmodSync(gh, 0o755);
  const run = await runCommand(
    "bash",
    [SCRIPT, "previous"],
    {
      PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}`,
      GH_TOKEN: "stub",
      GITHUB_REF_NAME: "main",
      GITHUB_RUN_ID: "5000",
      GITHUB_OUTPUT: join(dir.path, "output"),
      GITHUB_STEP_SUMMARY: join(dir.path, "summary.md"),
    },
    undefined,
    dir.path,
  );
  const read = (name: string) => (existsSync(join(dir.path, name)) ? readFileSync(join(dir.path, name), "utf8") : "");
  return { run, dir, output: read("output"), summary: read("summary.md"), calls: read("gh.log").trim().split("\n") };
}

test("the newest earlier run that left merged results is downloaded into the folder, this run and runs without results passed over", async () => {
  // 5000 is this run (in progress, as gh would not list it, but never compared with itself), 4300's merge left no artifact.
  const { run, dir, output, summary, calls } = await previousResults({
    runIds: ["5000", "4300", "4242", "4100"],
    withResults: ["4242", "4100"],
  });
  try {
    assert.equal(run.code, 0, run.stderr);
    assert.equal(output, "results=previous/run-results.json\n");
    assert.ok(existsSync(join(dir.path, "previous", "run-results.json")));
    assert.equal(summary, "");
    assert.deepEqual(calls, [
      "run list --workflow live.yml --branch main --status completed --limit 10 --json databaseId --jq .[].databaseId",
      "run download 4300 --name live-results --dir previous",
      "run download 4242 --name live-results --dir previous",
    ]);
  } finally {
    dir.remove();
  }
});

test("with no earlier run, or none that left merged results, the job summary says so in one line and the output is empty", async () => {
  for (const stub of [
    { runIds: [], withResults: [] },
    { runIds: ["4300", "4242"], withResults: [] },
  ]) {
    const { run, dir, output, summary, calls } = await previousResults(stub);
    try {
      assert.equal(run.code, 0, run.stderr);
      assert.equal(output, "results=\n");
      assert.equal(summary, `${NONE}\n`);
      assert.equal(existsSync(join(dir.path, "previous", "run-results.json")), false);
      assert.equal(calls.length, 1 + stub.runIds.length, calls.join("\n"));
    } finally {
      dir.remove();
    }
  }
});
