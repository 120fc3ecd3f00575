import assert from "node:assert/strict";
import { HomeInsuranceFlow } from "../../src/flows/home-insurance/index.ts";
import { registeredFlows } from "../../src/flows/index.ts";
import { policyNumberOf } from "../../src/flows/home-insurance/policy-number-of.ts";
import { rateHomePolicy } from "../../src/flows/home-insurance/rating/index.ts";
import { isComplete } from "../../src/flows/home-insurance/rating-facts.ts";
import { describeFlowScenarios, stepState } from "../../src/testing/index.ts";

describeFlowScenarios(HomeInsuranceFlow, {
  flows: registeredFlows,
  scenarios: {
    "home-insurance-flow": {
      domain: (document) => {
        const { facts, quote } = stepState(document, "QuoteStep");
        assert.ok(facts && isComplete(facts), "every rating fact is stored");
        assert.ok(quote, "a quote is stored");
        // The stored quote is what the rating engine gives for the stored facts on the day it was rated.
        const rerated = rateHomePolicy(facts, Number(quote.ratedOn.slice(0, 4)));
        assert.ok(rerated.eligible, "the stored facts are eligible");
        assert.equal(quote.premiumCents, rerated.premiumCents);
        assert.deepEqual(quote.factors, rerated.factors);

        const { policy } = stepState(document, "BindStep");
        assert.ok(policy, "a policy is bound");
        assert.equal(policy.premiumCents, quote.premiumCents, "the policy charges the accepted premium");
        assert.equal(
          policy.policyNumber,
          policyNumberOf({
            facts,
            premiumCents: quote.premiumCents,
            insuredName: policy.insuredName,
            effectiveDate: policy.effectiveDate,
          }),
        );

        // Every claims history went through the ClaimsHistory child, and the last one that completed listed what was saved.
        const listed = document.children.filter((child) => child.flow === "ClaimsHistory");
        assert.ok(listed.length > 0 && listed.every((child) => child.parentStep === "QuoteStep"));
        assert.deepEqual(
          listed.findLast((child) => child.runStatus === "completed")?.steps["ListClaimsStep"]?.["claims"],
          facts.claims,
        );
      },
    },
  },
});
