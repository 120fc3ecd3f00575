import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ENVIRONMENT_READ,
  LOAD_CONFIG_CALL,
  linesMatching,
  sourceLines,
  type SourceLine,
} from "./tools/configuration-reads.ts";

// The environment is read by the configuration module alone, and parsed where a command resolves its
// configuration: every other part is handed the values it needs.

/** The configuration module: the one reader of the environment. */
const CONFIGURATION_MODULE = "src/config.ts";
/** Where loadConfig may be called: a scenario's configuration derived, createApp's default, a command's. */
const LOAD_CONFIG_PLACES = 3;

const shown = (lines: readonly SourceLine[]) =>
  lines.map((each) => `${each.file}:${each.line} ${each.text}`).join("\n");

test("process.env is read by the configuration module alone", () => {
  const elsewhere = sourceLines("src", ENVIRONMENT_READ).filter((each) => each.file !== CONFIGURATION_MODULE);
  assert.deepEqual(
    elsewhere,
    [],
    `read the value from the run's configuration, or take it as an argument, instead of:\n${shown(elsewhere)}`,
  );
});

test(`loadConfig is called from at most ${LOAD_CONFIG_PLACES} places in src`, () => {
  const calls = sourceLines("src", LOAD_CONFIG_CALL);
  assert.ok(
    calls.length <= LOAD_CONFIG_PLACES,
    `derive a configuration from the run's (derivedConfig) instead of reading the environment again:\n${shown(calls)}`,
  );
});

test("the scan finds a read of the environment and a call of loadConfig, and skips comments and the definition", () => {
  const text = [
    "// process.env in a comment",
    " * loadConfig() in a block comment",
    "export function loadConfig(source = environment()) {",
    "  const port = process.env.PORT;",
    "  return loadConfig({}, defaults);",
    "}",
  ].join("\n");
  assert.deepEqual(
    linesMatching("x.ts", text, ENVIRONMENT_READ).map((each) => each.line),
    [4],
  );
  assert.deepEqual(
    linesMatching("x.ts", text, LOAD_CONFIG_CALL).map((each) => each.line),
    [5],
  );
});
