import type { FlowEntry } from "../engine/index.ts";

/**
 * Your own flows, each as `{ flow, scripts }` (its scripted model), e.g. `greetingFlowEntry` from
 * `./greeting/index.ts`. `npm start` serves them and the flow suites run their scenarios, beside
 * the demo flows or instead of them (see `./index.ts`).
 */
export const teamFlows: readonly FlowEntry[] = Object.freeze([]);
