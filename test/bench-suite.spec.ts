import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { measureSuite, SuiteRunFailed, type SuiteOptions } from "./bench/suite.ts";
import { tempDir } from "./support/temp-path.ts";

// The bench's suite phase (test/bench/suite.ts) on a small git project of two commits, timing a
// stand-in for npm test: `node -e` noting the tree it ran in, the commit's version file and whether
// that tree's node_modules was there. The timing itself is not checked: only what ran where, in what
// order, installed how, and what is left behind.

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@127.0.0.1", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

/** A project whose HEAD~1 has version 1 and HEAD version 2, with `lockfiles` at each, and an installed node_modules. */
function makeProject(path: string, lockfiles: [string, string]): void {
  mkdirSync(join(path, "node_modules"), { recursive: true });
  writeFileSync(join(path, "node_modules", "installed"), "");
  writeFileSync(join(path, ".gitignore"), "node_modules\n");
  git(path, "init", "--quiet");
  for (const [index, lockfile] of lockfiles.entries()) {
    writeFileSync(join(path, "version"), `${index + 1}`);
    writeFileSync(join(path, "package-lock.json"), lockfile);
    git(path, "add", ".");
    git(path, "commit", "--quiet", "-m", `version ${index + 1}`);
  }
}

/** The stand-in for npm test: one line `<version> <installed?>` in `log` a run; it exits `failWith` in the version 1 tree. */
function standIn(log: string, failWith = 0): string[] {
  const script = `
    const fs = require("node:fs");
    const version = fs.readFileSync("version", "utf8");
    fs.appendFileSync(${JSON.stringify(log)}, version + " " + fs.existsSync("node_modules/installed") + "\\n");
    if (version === "1" && ${failWith}) { console.log("the last line of a red run"); process.exit(${failWith}); }`;
  return [process.execPath, "-e", script];
}

/** The phase's options on a project made with `lockfiles`, its cleanups kept in `pending` as the bench keeps them. */
interface Setup {
  root: string;
  /** The scratch folder the ref's tree is made in. */
  scratch: string;
  /** Where the stand-in notes its runs. */
  log: string;
  options(overrides: Partial<SuiteOptions>): SuiteOptions;
  pending: unknown[];
}

/** `body` on a new project, removed after it whatever happened. */
async function withProject(lockfiles: [string, string], body: (setup: Setup) => Promise<void>): Promise<void> {
  const dir = await tempDir("bench-suite");
  try {
    const root = join(dir.path, "project");
    const scratch = join(dir.path, "scratch");
    mkdirSync(scratch);
    makeProject(root, lockfiles);
    const pending: (() => void)[] = [];
    const options = (overrides: Partial<SuiteOptions>): SuiteOptions => ({
      root,
      dir: scratch,
      ref: "HEAD~1",
      rounds: 2,
      env: process.env,
      log: () => undefined,
      onCleanup: (undo) => {
        pending.push(undo);
        return () => void pending.splice(pending.indexOf(undo), 1);
      },
      ...overrides,
    });
    await body({ root, scratch, log: join(dir.path, "runs.log"), options, pending });
  } finally {
    dir.remove();
  }
}

const runsIn = (log: string) => readFileSync(log, "utf8").split("\n");

test("suite times the command in the ref's tree and this one alternating, ref first, with node_modules linked where the lockfiles match", () =>
  withProject(
    ['{ "lockfileVersion": 3 }\n', '{ "lockfileVersion": 3 }\n'],
    async ({ root, scratch, log, options, pending }) => {
      const result = await measureSuite(options({ command: standIn(log) }));

      assert.deepEqual(
        result.runs.map((run) => run.tree),
        ["ref", "current", "current", "ref"],
      );
      assert.deepEqual(runsIn(log), ["1 true", "2 true", "2 true", "1 true", ""]);
      assert.equal(result.commit, git(root, "rev-parse", "--short", "HEAD~1"));
      assert.deepEqual(result.installs, [{ folder: ".", how: "linked to this tree's (the lockfiles are the same)" }]);
      const current = result.runs.filter((run) => run.tree === "current").map((run) => run.millis);
      assert.equal(result.millis, (current[0]! + current[1]!) / 2);
      assert.equal(result.ratio, result.millis / result.refMillis);
      assert.deepEqual(readdirSync(scratch), [], "the ref's tree is removed");
      assert.deepEqual(pending, [], "nothing is left for the bench to clean up");
      assert.equal(
        readFileSync(join(root, "node_modules", "installed"), "utf8"),
        "",
        "this tree's install is untouched",
      );
    },
  ));

test("suite installs the ref's tree from its own lockfile when it differs from this tree's", () =>
  withProject(['{ "lockfileVersion": 2 }\n', '{ "lockfileVersion": 3 }\n'], async ({ scratch, log, options }) => {
    const install = [
      process.execPath,
      "-e",
      'require("node:fs").mkdirSync("node_modules/installed", { recursive: true })',
    ];

    const result = await measureSuite(options({ command: standIn(log), install, rounds: 1 }));

    assert.deepEqual(
      result.runs.map((run) => run.tree),
      ["ref", "current"],
    );
    assert.deepEqual(runsIn(log), ["1 true", "2 true", ""]);
    assert.deepEqual(result.installs, [{ folder: ".", how: `${install.join(" ")} (the lockfiles differ)` }]);
    assert.deepEqual(readdirSync(scratch), []);
  }));

test("a failing run stops suite with its exit code and last lines, and the ref's tree is removed", () =>
  withProject(["{}\n", "{}\n"], async ({ scratch, log, options, pending }) => {
    await assert.rejects(measureSuite(options({ command: standIn(log, 7) })), (error: unknown) => {
      assert.ok(error instanceof SuiteRunFailed);
      assert.equal(error.exitCode, 7);
      assert.match(error.message, /exited 7 in the HEAD~1 \([0-9a-f]+\) tree:\n[^]*the last line of a red run/);
      return true;
    });
    assert.deepEqual(runsIn(log), ["1 true", ""], "nothing runs after the failure");
    assert.deepEqual(readdirSync(scratch), []);
    assert.deepEqual(pending, []);
  }));

test("suite refuses a ref that names no commit, saying which option names it", () =>
  withProject(["{}\n", "{}\n"], async ({ log, options }) => {
    await assert.rejects(
      measureSuite(options({ ref: "no-such-ref", command: standIn(log) })),
      /there is no commit no-such-ref; --suite-ref names the commit to compare with/,
    );
  }));
