import type { FlowEntry } from "../../engine/index.ts";
import { HotelFlow } from "./hotel-flow.ts";
import { hotelFlowScripts } from "./hotel-flow-scripts.ts";

/** HotelFlow as an app registers it, with scripts for it and its RateQuote child. */
export const hotelFlowEntry: FlowEntry = Object.freeze({ flow: HotelFlow, scripts: hotelFlowScripts });

export { HotelFlow, hotelFlowScripts };
export { resolveStay } from "./resolve-stay.ts";
