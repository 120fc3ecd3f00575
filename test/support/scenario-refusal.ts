import assert from "node:assert/strict";
import { FlowcheckError } from "../../src/errors.ts";

/** The problems `load` is refused with (`scenario_invalid`); a load that succeeds fails the test. */
export function refusalProblems(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    assert.ok(error instanceof FlowcheckError && error.code === "scenario_invalid", String(error));
    return error.details as string[];
  }
  return assert.fail("the file loaded, but it should have been refused");
}
