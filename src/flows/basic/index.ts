import type { FlowEntry } from "../../engine/index.ts";
import { BasicFlow } from "./basic-flow.ts";
import { basicFlowScripts } from "./basic-flow-scripts.ts";

/** BasicFlow as an app registers it, with scripts for it and its AddressCheck child. */
export const basicFlowEntry: FlowEntry = Object.freeze({ flow: BasicFlow, scripts: basicFlowScripts });

export { BasicFlow, basicFlowScripts };
