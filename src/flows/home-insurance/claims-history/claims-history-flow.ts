import { defineFlow, type FlowTypes } from "../../../engine/index.ts";
import type { Claim } from "../rating/index.ts";
import { ListClaimsStep } from "./list-claims-step.ts";

const steps = { ListClaimsStep };

/** ClaimsHistory completes with the claims it listed as its output. */
export interface ClaimsHistoryTypes extends FlowTypes<typeof steps, { output: Claim[] }> {}

/**
 * A child flow of HomeInsuranceFlow's QuoteStep: turns the homeowner's own account of past claims
 * ("a burst pipe in 2021 and a kitchen fire in 2025") into dated claims. Reading free text is the
 * model's job; counting the claims and declining the home stay in the rating engine.
 */
export const ClaimsHistoryFlow = defineFlow<ClaimsHistoryTypes>({
  name: "ClaimsHistory",
  description: "Lists the past home insurance claims a homeowner describes, each with its year and cause.",
  steps,
  maxModelCalls: 4,
});
