import assert from "node:assert/strict";
import { demoFlows } from "../../src/flows/index.ts";
import { describeFlowScenarios, stepState } from "../../src/testing/index.ts";

describeFlowScenarios("BasicFlow", {
  flows: demoFlows,
  domain: (document) => {
    assert.equal(stepState(document, "NameStep")["name"], "John Wick");
    // The placeholder-names scenario ends once the name is accepted; only a whole run has an address.
    if (document.runStatus !== "completed") return;
    assert.equal(stepState<{ address: { zip: string } }>(document, "AddressStep").address.zip, "97006");
    const check = document.children.find((child) => child.runStatus === "completed");
    assert.equal(check?.flow, "AddressCheck");
    assert.equal(check?.parentStep, "AddressStep");
  },
});
