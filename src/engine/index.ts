export { envPrefixOf } from "./env-prefix.ts";
export { defineFlow, type FlowDefinition, type FlowOptions, type Renderer } from "./flow.ts";
export type { FlowTypes, FlowShape, UntypedFlow, StepNameOf, StateOfStep, DeepReadonly } from "./flow-types.ts";
export type { FromSchema } from "./from-schema.ts";
export { Step, type StepClass, type StepContext, type ChildOutcome, type ChildRequest } from "./step.ts";
export { tool, toolsOf, type ToolSpec } from "./tool.ts";
export { characterProblem } from "./character-problem.ts";
export { stay, advance, complete, type ToolResult, type StayResult, type AdvanceResult, type CompleteResult } from "./tool-result.ts";
export { Model, type ModelSettings } from "./model.ts";
export { useModelWrapper, type ModelWrapper } from "./model-wrapper.ts";
export type { ChatModel, ModelContext, ModelReply, ModelRequest, ToolDefinition } from "./chat-model.ts";
export {
  useScriptedModel,
  scriptedText,
  scriptedToolCalls,
  preview,
  type Script,
  type ScriptRequest,
  type Scripts,
  type FlowEntry,
} from "./scripted-model.ts";
export { createClock, type Clock } from "./clock.ts";
export { FlowEngine, type ChatRequest, type TurnOutcome, type FlowSummary } from "./flow-engine.ts";
export type { SessionStore } from "./session-store.ts";
export * from "./session-document.ts";
