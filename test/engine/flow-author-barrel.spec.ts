import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import * as barrel from "../../src/engine/index.ts";

// src/engine/index.ts is what flows are written with (src/index.ts passes it on to the package's
// users); the engine's own parts are imported from their files. These fail when an internal leaks
// into it, so that adding one is a decision the API's docs have to follow.

test("the flow-author barrel exports, at run time, the flow API and the script helpers, and nothing else", () => {
  assert.deepEqual(Object.keys(barrel).sort(), [
    "Step",
    "advance",
    "characterProblem",
    "complete",
    "defineFlow",
    "scriptedText",
    "scriptedToolCalls",
    "stay",
    "tool",
  ]);
});

test("the flow-author barrel names each export: no export * passes on a file's internals", () => {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "src", "engine", "index.ts"), "utf8");
  assert.doesNotMatch(source, /export \*/);
});
