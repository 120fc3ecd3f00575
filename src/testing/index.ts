export {
  describeFlowScenarios,
  type FlowScenariosOptions,
  type ScenarioChecks,
} from "./node-test/describe-flow-scenarios.ts";
export { ScenarioRun } from "./run/scenario-run.ts";
export { runScenario } from "./run/run-scenario.ts";
export { startScenarioTarget } from "./target/scenario-target.ts";
// A target of one's own: what runScenario and ScenarioRun play against.
export type { ScenarioTarget, TargetCapabilities, TargetDescription } from "./target/scenario-target.ts";
export type { ConversationOptions, ConversationTurn, TargetConversation } from "./target/target-conversation.ts";
// The tools a turn called, as a conversation reports them and the results show them.
export type { CalledTool } from "./checks/called-tool.ts";
export type { SessionReader, TargetSessions } from "./target/session-reader.ts";
// A team's scripts for the model its app calls through the seam: the request they read, the reply helpers.
export type { SeamContext, SeamMessage, SeamRequest, SeamScript } from "./seam/seam-request.ts";
export { scriptedText, scriptedToolCalls } from "../engine/scripted-model.ts";
export { flowcheckApi } from "./target/flowcheck-api.ts";
export { loadScenario } from "./scenario/load-scenario.ts";
export { discoverScenarios } from "./scenario/scenario-discovery.ts";
export type { Scenario, ScenarioTurn, SimulatedUser, ScenarioSuccess } from "./scenario/scenario.ts";
export type { TurnReport, FinalReport, SimulationReport, SimulationEnd } from "./checks/turn-report.ts";
export type { UserSimulator, UserTurn } from "./user/user-simulator.ts";
export type { DomainCheck, TurnCheck } from "./checks/domain-check.ts";
export type { FlowDocument, FlowHead } from "./checks/flow-document.ts";
// What the checks in code read: the stored session, its head, its execution log.
export type { SessionDocument, SessionHead, ExecutionEntry } from "../engine/session-document.ts";
export type { SessionView, SessionViewHead } from "./checks/session-view.ts";
export { stepState } from "./checks/step-state.ts";
export { parseCsv } from "./answer/parse-csv.ts";
export { renderTranscript } from "./report/render-transcript.ts";
export type { Transcript } from "./report/transcript.ts";
// A run's events, as a reporter given to flowcheck test --reporter receives them.
export type {
  RunEvent,
  RunBegin,
  RunEnd,
  RunProblem,
  ConversationIdentity,
  ConversationBegin,
  ConversationEnd,
  TurnEventData,
  JudgeEventData,
  FinalEventData,
  RepeatSummary,
  RunReporter,
} from "./report/run-event.ts";
