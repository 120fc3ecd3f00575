import type { FlowEntry } from "../engine/index.ts";
import { basicFlowEntry } from "./basic/index.ts";
import { homeInsuranceFlowEntry } from "./home-insurance/index.ts";
import { hotelFlowEntry } from "./hotel/index.ts";
import { invoiceFlowEntry } from "./invoice/index.ts";

/** The four demo flows, each with its scripted model. */
export const demoFlows: readonly FlowEntry[] = Object.freeze([
  basicFlowEntry,
  hotelFlowEntry,
  invoiceFlowEntry,
  homeInsuranceFlowEntry,
]);
