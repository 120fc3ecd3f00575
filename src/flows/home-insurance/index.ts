import type { FlowEntry } from "../../engine/index.ts";
import { HomeInsuranceFlow } from "./home-insurance-flow.ts";
import { homeInsuranceFlowScripts } from "./home-insurance-flow-scripts.ts";

/** HomeInsuranceFlow as an app registers it, with the scripts of the flow and its ClaimsHistory child. */
export const homeInsuranceFlowEntry: FlowEntry = Object.freeze({
  flow: HomeInsuranceFlow,
  scripts: homeInsuranceFlowScripts,
});

export { HomeInsuranceFlow, homeInsuranceFlowScripts };
