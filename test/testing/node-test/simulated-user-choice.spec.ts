import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import type { ScriptedUser } from "../../../src/engine/scripted-user.ts";
import { suiteRunOptions } from "../../../src/testing/node-test/suite-run-options.ts";
import type { ScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import { basicFlowEntry } from "../../fixtures/flows/index.ts";
import { basicFlowUser } from "../../fixtures/flows/basic/basic-flow-user.ts";

// Who plays a scenario's simulated user follows the flow's model mode, as the flow's model does.

function optionsIn(env: Record<string, string>, flowName: string, users?: Record<string, ScriptedUser>) {
  const target = { capabilities: { config: loadConfig(env) } } as ScenarioTarget;
  const flows = [{ ...basicFlowEntry, user: basicFlowUser }];
  return suiteRunOptions(target, { flows, ...(users ? { users } : {}) }, "test/.tmp", flowName).run;
}

test("a flow of the app is played by the scripted user of its FlowEntry, and its steps are known", () => {
  const run = optionsIn({}, "BasicFlow");
  assert.equal(run.user?.player, "scripted");
  assert.deepEqual(run.steps, ["NameStep", "WeatherStep", "AddressStep"]);
});

test("a flow another kind of target serves is played by the spec's scripted user for it", () => {
  const run = optionsIn({}, "IntakeGraph", { IntakeGraph: basicFlowUser });
  assert.equal(run.user?.player, "scripted");
  const none = optionsIn({}, "IntakeGraph");
  assert.equal(none.user, undefined);
  assert.match(none.userUnavailable ?? "", /^IntakeGraph has no scripted user/);
});

test("a flow pinned to its scripted model keeps its scripted user when the run is live", () => {
  const live = optionsIn({ FLOW_MODEL: "live", OPENAI_API_KEY: "test-key" }, "BasicFlow");
  assert.equal(live.user?.player, "live gpt-4o-mini");
  const pinned = optionsIn(
    { FLOW_MODEL: "live", OPENAI_API_KEY: "test-key", BASIC_FLOW_USE_SCRIPTED_MODEL: "1" },
    "BasicFlow",
  );
  assert.equal(pinned.user?.player, "scripted");
});
