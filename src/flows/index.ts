import type { FlowEntry } from "../engine/index.ts";
import { BasicFlow } from "./basic/basic-flow.ts";
import { basicFlowScripts } from "./basic/basic-flow-scripts.ts";
import { homeInsuranceFlowEntry } from "./home-insurance/index.ts";
import { hotelFlowEntry } from "./hotel/index.ts";
import { invoiceFlowEntry } from "./invoice/index.ts";

export const basicFlowEntry: FlowEntry = Object.freeze({ flow: BasicFlow, scripts: basicFlowScripts });

/** The demo flows `npm start` serves, each with its scripted model. */
export const demoFlows: readonly FlowEntry[] = Object.freeze([basicFlowEntry, hotelFlowEntry, invoiceFlowEntry, homeInsuranceFlowEntry]);

export { BasicFlow, basicFlowScripts, homeInsuranceFlowEntry, hotelFlowEntry, invoiceFlowEntry };
