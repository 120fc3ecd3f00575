import type { FlowEntry } from "../engine/index.ts";
import { demoFlows } from "./demo-flows.ts";
import { teamFlows } from "./team-flows.ts";

/**
 * Every flow `npm start` serves and the flow suites run: the demo flows, then yours. To serve
 * yours alone, drop `...demoFlows` here; to delete the demos, remove their folders here, their
 * scenarios and their specs (README, "Your own flows").
 */
export const registeredFlows: readonly FlowEntry[] = Object.freeze([...demoFlows, ...teamFlows]);

export { demoFlows, teamFlows };
