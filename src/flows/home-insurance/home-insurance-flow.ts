import { defineFlow, type FlowTypes } from "../../engine/index.ts";
import { BindStep } from "./bind-step.ts";
import { ClaimsHistoryFlow } from "./claims-history/claims-history-flow.ts";
import { QuoteStep } from "./quote-step.ts";

const steps = { QuoteStep, BindStep };

/** HomeInsuranceFlow's step names and states, for its steps' `Step<State, HomeInsuranceFlowTypes>`. */
export interface HomeInsuranceFlowTypes extends FlowTypes<typeof steps> {}

/**
 * Quotes and binds a homeowners policy: QuoteStep collects the home's rating facts (any of which the
 * user can correct until they accept) and rates them with the table-driven engine in rating/;
 * BindStep takes the named insured and the start date and issues the policy.
 */
export const HomeInsuranceFlow = defineFlow<HomeInsuranceFlowTypes>({
  name: "HomeInsuranceFlow",
  description:
    "Collects a home's rating facts, quotes a homeowners policy from a table-driven rating engine, and binds it.",
  steps,
  children: [ClaimsHistoryFlow],
});
