import assert from "node:assert/strict";
import { test } from "node:test";
import { hasTestFilter, testFilterFlags } from "../../../src/testing/node-test/test-filters.mjs";

test("a name pattern, a skip pattern or --test-only is a filter, with or without its value joined; a reporter or a shard is not", () => {
  for (const args of [
    ["--test-name-pattern=^a"],
    ["--test-name-pattern", "^a"],
    ["--test-skip-pattern=b"],
    ["--test-only"],
    ["test/x.spec.ts", "--test-only"],
  ])
    assert.equal(hasTestFilter(args), true, args.join(" "));
  for (const args of [[], ["--test-reporter=tap"], ["--test-shard=1/2", "--test-concurrency", "2"], ["only.spec.ts"]])
    assert.equal(hasTestFilter(args), false, args.join(" "));
});

test("the filters become node's own flags, each with the value it takes from the next argument, the rest left out", () => {
  assert.deepEqual(
    testFilterFlags([
      "test/a.spec.ts",
      "--test-name-pattern",
      "runs|purpose",
      "--test-reporter=tap",
      "--test-skip-pattern=slow",
      "--test-only",
      "--repeat",
      "2",
    ]),
    ["--test-name-pattern", "runs|purpose", "--test-skip-pattern=slow", "--test-only"],
  );
});
