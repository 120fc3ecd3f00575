import type { Mutant } from "../../src/testing/strength/mutant.ts";

/** BasicFlow's save_name with its write of NameStep's `name` undone, under the id flowcheck strength gives it. */
export const DROP_NAME: Mutant = {
  id: "BasicFlow/NameStep/save_name: drop state.name",
  flow: "BasicFlow",
  step: "NameStep",
  tool: "save_name",
  change: { kind: "drop-write", key: "name" },
};
