import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionHead } from "../../../src/engine/session-document.ts";
import { describeTurn } from "../../../src/testing/capture/describe-turn.ts";
import { sessionChange } from "../../../src/testing/report/session-change.ts";

function head(
  currentStep: string,
  runStatus: SessionHead["runStatus"],
  steps: SessionHead["steps"],
  children: SessionHead["children"] = [],
): SessionHead {
  return {
    id: "s",
    version: 2,
    turns: 1,
    flow: { name: "BasicFlow", currentStep },
    runStatus,
    steps,
    children,
    createdAt: "",
    updatedAt: "",
  };
}

test("a turn is shown as its answer, the step and run status it moved between, each state key it added, changed or removed, and the nested runs it started", () => {
  const before = head("WeatherStep", "running", { WeatherStep: { city_LA: 70, draft: "x" } });
  const child = {
    flow: "AddressCheck",
    parentStep: "AddressStep",
    turn: 2,
    runStatus: "completed" as const,
    currentStep: "NormalizeAddressStep",
    steps: {},
    memory: {},
    execution: [],
  };
  const after = head("AddressStep", "completed", { WeatherStep: { city_LA: 72 }, AddressStep: { zip: "97006" } }, [
    child,
  ]);
  assert.equal(
    describeTurn("BasicFlow", { input: "LA", response: "Done.", head: after, change: sessionChange(before, after) }),
    [
      "BasicFlow> Done.",
      "  step WeatherStep → AddressStep · running → completed",
      "  WeatherStep.city_LA: 70 → 72",
      "  WeatherStep.draft removed",
      '  AddressStep.zip = "97006"',
      "  ran AddressCheck from AddressStep: completed",
    ].join("\n"),
  );
});

test("a turn that changed nothing says the state is unchanged, with the step and status it stayed on", () => {
  const same = head("NameStep", "running", {});
  assert.equal(
    describeTurn("BasicFlow", {
      input: "John Doe",
      response: "A real name, please.",
      head: same,
      change: sessionChange(same, same),
    }),
    "BasicFlow> A real name, please.\n  step NameStep · running\n  state unchanged",
  );
});
