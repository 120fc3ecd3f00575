import type { FlowEntry } from "../../engine/index.ts";
import { BasicFlow } from "./basic-flow.ts";
import { basicFlowScripts } from "./basic-flow-scripts.ts";
import { basicFlowUser } from "./basic-flow-user.ts";

/** BasicFlow as an app registers it, with scripts for it and its AddressCheck child, and its scripted user. */
export const basicFlowEntry: FlowEntry = Object.freeze({
  flow: BasicFlow,
  scripts: basicFlowScripts,
  user: basicFlowUser,
});

export { BasicFlow, basicFlowScripts, basicFlowUser };
