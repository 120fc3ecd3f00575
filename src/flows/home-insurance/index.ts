import type { FlowEntry } from "../../engine/index.ts";
import { HomeInsuranceFlow } from "./home-insurance-flow.ts";
import { homeInsuranceFlowScripts } from "./home-insurance-flow-scripts.ts";
import { homeInsuranceFlowUser } from "./home-insurance-flow-user.ts";

/** HomeInsuranceFlow as an app registers it, with the scripts of the flow and its ClaimsHistory child, and its scripted user. */
export const homeInsuranceFlowEntry: FlowEntry = Object.freeze({
  flow: HomeInsuranceFlow,
  scripts: homeInsuranceFlowScripts,
  user: homeInsuranceFlowUser,
});

export { HomeInsuranceFlow, homeInsuranceFlowScripts, homeInsuranceFlowUser };
