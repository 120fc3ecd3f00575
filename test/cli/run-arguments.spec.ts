import assert from "node:assert/strict";
import { test } from "node:test";
import { ArgumentError, runRequestOf, withoutWatch } from "../../src/cli/run-arguments.ts";

test("flowcheck test's arguments: paths anywhere, node:test's options before or after them, values not taken for paths", () => {
  const request = runRequestOf([
    "--test-name-pattern",
    "BasicFlow",
    "test/flows",
    "--repeat=3",
    "stories/team",
    "--test-reporter=tap",
    "--checklist",
  ]);
  assert.deepEqual(request?.paths, ["test/flows", "stories/team"]);
  assert.deepEqual(request?.namePatterns, ["BasicFlow"]);
  assert.equal(request?.repeat, 3);
  assert.equal(request?.everyTable, true);
  assert.deepEqual(request?.reporters, [{ name: "tap", destination: "stdout" }]);
  assert.equal(request?.concurrency, 1);
});

test("without --test-reporter the run reports with node:test's spec reporter on stdout; each reporter gets its destination in order", () => {
  assert.deepEqual(runRequestOf(["test"])?.reporters, [{ name: "spec", destination: "stdout" }]);
  const both = runRequestOf([
    "test",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter",
    "junit",
    "--test-reporter-destination",
    "out/junit.xml",
  ]);
  assert.deepEqual(both?.reporters, [
    { name: "spec", destination: "stdout" },
    { name: "junit", destination: "out/junit.xml" },
  ]);
});

test("--help and -h ask for the usage, not a run", () => {
  assert.equal(runRequestOf(["--help"]), undefined);
  assert.equal(runRequestOf(["test", "-h"]), undefined);
});

test("a value flowcheck test cannot use is refused, saying which option and what it got", () => {
  const refused = (args: string[], message: RegExp) =>
    assert.throws(
      () => runRequestOf(args),
      (error: unknown) => error instanceof ArgumentError && message.test(error.message),
    );
  refused(["--repeat", "0"], /^--repeat takes a whole number of runs, got 0\.$/);
  refused(["--repeat="], /^--repeat takes a whole number of runs, got nothing\.$/);
  refused(["--test-timeout", "soon"], /^--test-timeout takes a whole number of milliseconds, got soon\.$/);
  refused(["--test-shard", "0/2"], /^--test-shard takes i\/n, shard i of n/);
  refused(["--test-concurrency=many"], /^--test-concurrency takes a whole number of tests, got many\.$/);
  refused(["--watch=yes"], /--watch/);
  refused(["--checklist=yes"], /--checklist/);
});

test("--watch asks for rounds of the same command line without it, and refuses what an edit loop would get wrong", () => {
  assert.equal(runRequestOf(["stories/a.scenario.json"])?.watch, false);
  assert.equal(runRequestOf(["--watch", "stories/a.scenario.json", "--junit", "out.xml"])?.watch, true);
  assert.deepEqual(withoutWatch(["test/flows", "--watch", "--test-name-pattern", "BasicFlow", "--", "--watch"]), [
    "test/flows",
    "--test-name-pattern",
    "BasicFlow",
    "--",
    "--watch",
  ]);
  assert.throws(
    () => runRequestOf(["--watch", "--test-shard=1/2"]),
    (error: unknown) =>
      error instanceof ArgumentError && /^--watch reruns what you edit, and --test-shard/.test(error.message),
  );
  assert.throws(
    () => runRequestOf(["--typechecked", "--watch"]),
    (error: unknown) =>
      error instanceof ArgumentError && /^--typechecked says the typecheck has passed/.test(error.message),
  );
});

test("--junit FILE asks for exactly what --reporter junit=FILE asks for", () => {
  assert.deepEqual(runRequestOf(["--junit", "out/junit.xml"])?.runReporters, [
    { name: "junit", destination: "out/junit.xml" },
  ]);
  assert.deepEqual(
    runRequestOf(["--junit", "out/junit.xml"])?.runReporters,
    runRequestOf(["--reporter", "junit=out/junit.xml"])?.runReporters,
  );
});

test("--reporter takes comma-separated names, name=file and module paths, may repeat, and adds them in order", () => {
  assert.deepEqual(runRequestOf([])?.runReporters, []);
  assert.deepEqual(
    runRequestOf(["--reporter", "junit=test/.tmp/junit.xml,./test/slack-reporter.ts", "--reporter=html=page.html"])
      ?.runReporters,
    [
      { name: "junit", destination: "test/.tmp/junit.xml" },
      { module: "./test/slack-reporter.ts" },
      { name: "html", destination: "page.html" },
    ],
  );
});

test("--reporter refuses a name that is no reporter, naming those there are, and a destination where none is taken", () => {
  const refused = (args: string[], message: RegExp) =>
    assert.throws(
      () => runRequestOf(args),
      (error: unknown) => error instanceof ArgumentError && message.test(error.message),
    );
  refused(
    ["--reporter", "slack"],
    /^--reporter slack is not a reporter: give summary, results, transcripts, html, junit, github, checklist, or a module's path/,
  );
  refused(["--reporter", "summary=out.txt"], /only junit and html take a destination/);
  refused(["--reporter", "./mine.ts=out.txt"], /a module reporter takes no destination/);
});
