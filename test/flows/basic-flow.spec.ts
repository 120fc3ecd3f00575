import assert from "node:assert/strict";
import { BasicFlow } from "../../src/flows/basic/index.ts";
import { registeredFlows } from "../../src/flows/index.ts";
import { describeFlowScenarios, stepState } from "../../src/testing/index.ts";

describeFlowScenarios(BasicFlow, {
  flows: registeredFlows,
  scenarios: {
    // The whole conversation: the name, the validated address, and the child run that checked it.
    "basic-flow": {
      domain: (document) => {
        assert.equal(stepState(document, "NameStep").name, "John Wick");
        assert.equal(stepState(document, "AddressStep").address?.zip, "97006");
        const check = document.children.find((child) => child.runStatus === "completed");
        assert.equal(check?.flow, "AddressCheck");
        assert.equal(check?.parentStep, "AddressStep");
      },
    },
  },
});
