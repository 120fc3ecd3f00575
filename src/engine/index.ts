// The flow-author API, and nothing else: what a flow's steps, tools, renderers and scripts are
// written with. The engine's own parts (FlowEngine, the model seam, clocks, the session document
// beyond what a script or renderer reads) are imported from their files inside the repository;
// an app is built and served from src/index.ts.
export { defineFlow, type FlowDefinition, type FlowOptions, type Renderer } from "./flow.ts";
export type { FlowTypes, FlowShape, UntypedFlow, StepNameOf, StateOfStep, DeepReadonly } from "./flow-types.ts";
export type { FromSchema } from "./from-schema.ts";
export { Step, type StepClass, type StepContext, type ChildOutcome, type ChildRequest } from "./step.ts";
export { tool, type ToolSpec } from "./tool.ts";
export { characterProblem } from "./character-problem.ts";
export {
  stay,
  advance,
  complete,
  type ToolResult,
  type StayResult,
  type AdvanceResult,
  type CompleteResult,
} from "./tool-result.ts";
export {
  scriptedText,
  scriptedToolCalls,
  type Script,
  type ScriptRequest,
  type Scripts,
  type FlowEntry,
} from "./scripted-model.ts";
export type {
  ScriptedUser,
  UserProfile,
  UserMessage,
  UserReply,
  UserStyle,
  UserTurnRequest,
} from "./scripted-user.ts";
export type { ModelReply } from "./chat-model.ts";
export type { MemoryEntry, RunStatus, StepStates } from "./session-document.ts";
