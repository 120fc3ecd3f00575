import type { FlowEntry } from "../engine/index.ts";
import { BasicFlow } from "./basic/basic-flow.ts";
import { basicFlowScripts } from "./basic/basic-flow-scripts.ts";

/** The demo flows `npm start` serves, each with its scripted model. */
export const demoFlows: readonly FlowEntry[] = Object.freeze([{ flow: BasicFlow, scripts: basicFlowScripts }]);

export { BasicFlow, basicFlowScripts };
