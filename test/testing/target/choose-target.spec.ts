import assert from "node:assert/strict";
import { test } from "node:test";
import { FlowcheckError } from "../../../src/errors.ts";
import { chooseTarget } from "../../../src/testing/target/choose-target.ts";
import type { TargetConfig } from "../../../src/testing/target/target-config.ts";

const WHERE = "test/fixtures/scenarios/support.scenario.json";
const STAGING = { kind: "flowcheck", baseUrl: "https://flows.staging.test" } as const;
const LOCAL = { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000" } as const;
const CONFIG: TargetConfig = { path: "flowcheck.config.json", targets: { staging: STAGING, local: LOCAL } };

/** The target_config_invalid error `choose` throws, by its message. */
function refusal(choose: () => unknown): string {
  try {
    choose();
  } catch (error) {
    assert.ok(error instanceof FlowcheckError, String(error));
    assert.equal(error.code, "target_config_invalid");
    return error.message;
  }
  assert.fail("no error was thrown");
}

test("the scenario's own target wins over FLOW_TARGET", () => {
  assert.deepEqual(chooseTarget(CONFIG, "staging", "local", WHERE), { name: "staging", entry: STAGING });
});

test("a scenario that names no target gets FLOW_TARGET's", () => {
  assert.deepEqual(chooseTarget(CONFIG, undefined, "local", WHERE), { name: "local", entry: LOCAL });
});

test("with neither a scenario's target nor FLOW_TARGET there is no target, config or not: the run stays as it was", () => {
  assert.equal(chooseTarget(CONFIG, undefined, undefined, WHERE), undefined);
  assert.equal(chooseTarget(undefined, undefined, undefined, WHERE), undefined);
});

test("a scenario's unknown target is refused with the closest name and the names the config has", () => {
  assert.equal(
    refusal(() => chooseTarget(CONFIG, "stagng", undefined, WHERE)),
    `${WHERE}: "target": "stagng" names no target of flowcheck.config.json; did you mean "staging"? (its targets are staging, local); use one of those names, or add "stagng" to its "targets".`,
  );
});

test("an unknown FLOW_TARGET with nothing close is refused naming the variable, the scenario and the names the config has", () => {
  assert.equal(
    refusal(() => chooseTarget(CONFIG, undefined, "production", WHERE)),
    `FLOW_TARGET=production (the target of ${WHERE}, which names none) names no target of flowcheck.config.json (its targets are staging, local); use one of those names, or add "production" to its "targets".`,
  );
});

test("a name no config inherits from Object, such as constructor, is no target", () => {
  assert.match(
    refusal(() => chooseTarget(CONFIG, "constructor", undefined, WHERE)),
    /names no target of/,
  );
});

test("naming a target without a flowcheck.config.json says to create one", () => {
  assert.equal(
    refusal(() => chooseTarget(undefined, "staging", undefined, WHERE)),
    `${WHERE}: "target": "staging" names a target, but there is no flowcheck.config.json; create one at the project root with "targets": { "staging": { "kind": …, "baseUrl": … } } (its schema is flowcheck.config.schema.json).`,
  );
  assert.match(
    refusal(() => chooseTarget(undefined, undefined, "staging", WHERE)),
    /^FLOW_TARGET=staging .* there is no flowcheck\.config\.json; create one/,
  );
});
