import type { FlowEntry } from "../../engine/index.ts";
import { HotelFlow } from "./hotel-flow.ts";
import { hotelFlowScripts } from "./hotel-flow-scripts.ts";
import { hotelFlowUser } from "./hotel-flow-user.ts";

/** HotelFlow as an app registers it, with scripts for it and its RateQuote child, and its scripted user. */
export const hotelFlowEntry: FlowEntry = Object.freeze({
  flow: HotelFlow,
  scripts: hotelFlowScripts,
  user: hotelFlowUser,
});

export { HotelFlow, hotelFlowScripts, hotelFlowUser };
export { resolveStay } from "./resolve-stay.ts";
