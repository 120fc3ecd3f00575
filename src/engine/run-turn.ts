import { isDeepStrictEqual } from "node:util";
import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import type { ModelReply } from "./chat-model.ts";
import type { Clock } from "./clock.ts";
import type { CompiledTool, FlowDefinition } from "./flow.ts";
import type { ModelFactory } from "./model-factory.ts";
import { RunRecorder } from "./run-recorder.ts";
import { FLOW_MEMORY, type ToolCall } from "./session-document.ts";
import { frozenCopy } from "./frozen-copy.ts";
import type { ChildOutcome, Step, StepClass, StepContext } from "./step.ts";
import type { ToolResult } from "./tool-result.ts";
import { describeErrors } from "./schema-validator.ts";

export interface TurnDependencies {
  modelOf: ModelFactory;
  /** The flow whose session this is; children follow its model mode. */
  rootFlow: string;
  clockOf(flow: string): Clock;
  env: Readonly<Record<string, string>>;
}

function invalidTool(name: string, detail: string): FlowcheckError {
  return new FlowcheckError("internal_error", `Tool "${name}" ${detail}`);
}

function checkResult(result: unknown, tool: CompiledTool, flow: FlowDefinition): ToolResult {
  const kind = (result as { kind?: unknown } | null)?.kind;
  if (kind !== "stay" && kind !== "advance" && kind !== "complete") {
    throw invalidTool(
      tool.name,
      `returned ${JSON.stringify(result)}; a tool must return stay(...), advance(...) or complete(...).`,
    );
  }
  const checked = result as ToolResult;
  if (checked.kind === "advance" && !flow.step(checked.to)) {
    throw invalidTool(
      tool.name,
      `advanced to "${checked.to}", which is not a step of ${flow.name} (${flow.stepNames.join(", ")}).`,
    );
  }
  return checked;
}

function modelFailure(error: unknown, where: string): FlowcheckError {
  if (isFlowcheckError(error)) return error;
  return new FlowcheckError(
    "model_error",
    `The model failed at ${where}: ${(error as Error).message}. The turn was not applied; send the message again.`,
    {
      cause: error,
    },
  );
}

/**
 * Plays one user message through a run: the current step's model answers or calls tools, tool
 * results go back to it, and the loop ends when it answers in words. Moving to another step hands the
 * loop to that step's model, whose memory gets the turn's message and the hand-off note first (see
 * `handOff`). Returns the answer; everything the turn did is on `run`.
 */
export async function runTurn(run: RunRecorder, message: string, deps: TurnDependencies): Promise<string> {
  const flow = run.flow;
  run.remember(run.currentStep, { role: "user", content: message });
  run.remember(FLOW_MEMORY, { role: "user", content: message });
  const heard = new Set([run.currentStep]);

  for (let calls = 1; ; calls++) {
    if (calls > flow.maxModelCalls) {
      throw new FlowcheckError(
        "tool_loop_exceeded",
        `${flow.name}/${run.currentStep}: the model called tools ${flow.maxModelCalls} times in one turn without answering. ` +
          "The turn was not applied; check the step's prompt and tools, or raise maxModelCalls in defineFlow.",
      );
    }
    const stepName = run.currentStep;
    const step = new (flow.step(stepName) as StepClass)();
    const context = stepContext(run, stepName, deps);
    const tools = run.runStatus === "running" ? flow.tools(stepName) : [];
    const chat = deps.modelOf({ flow: flow.name, rootFlow: deps.rootFlow, step: stepName });
    // Awaited here rather than in a wrapper: a turn makes several model calls, and each async
    // layer is a promise more.
    const request = { system: step.systemPrompt(context), messages: run.memory[stepName] ?? [], tools };
    let reply: ModelReply;
    try {
      reply = await chat.invoke(request);
    } catch (error) {
      throw modelFailure(error, `${flow.name}/${stepName}`);
    }

    if (reply.toolCalls.length === 0 || tools.length === 0) {
      run.remember(stepName, { role: "assistant", content: reply.content });
      run.remember(FLOW_MEMORY, { role: "assistant", content: reply.content });
      return reply.content;
    }

    run.remember(stepName, { role: "assistant", content: reply.content, toolCalls: reply.toolCalls });
    const ended = await runToolCalls(run, stepName, step, context, tools, reply.toolCalls);
    if (ended?.kind === "advance") handOff(run, stepName, ended, message, heard);
    else if (ended?.kind === "complete") run.runStatus = "completed";
  }
}

/**
 * Runs a reply's tool calls in order, and returns the result that ended the step, if one did: the
 * calls after it are answered as not run, so the step's memory stays a valid conversation.
 */
async function runToolCalls(
  run: RunRecorder,
  stepName: string,
  step: Step,
  context: StepContext,
  tools: readonly CompiledTool[],
  calls: readonly ToolCall[],
): Promise<ToolResult | undefined> {
  let ended: ToolResult | undefined;
  for (const call of calls) {
    if (ended) {
      answerTool(run, stepName, call, "Not run: an earlier call in this reply already ended the step.");
      run.log({ step: stepName, kind: "tool", name: call.name, outcome: "skipped" });
      continue;
    }
    const called = callTool(run, stepName, step, context, tools, call);
    const result = called instanceof Promise ? await called : called;
    if (result?.kind === "advance" || result?.kind === "complete") ended = result;
  }
  return ended;
}

/**
 * Moves the cursor from `from` to the step the result names. That step's model has not seen this
 * turn: its memory gets the user's message (once a turn, however often the turn comes back to it)
 * and the advance's hand-off (its `handoff`, else its message) as a `handoff` entry, so a model
 * entering the step, for the first time or again, knows what the user asked and why it is here.
 * Appended after every call of the reply is answered, so an advance to the same step keeps its tool
 * calls and results together.
 */
function handOff(
  run: RunRecorder,
  from: string,
  result: Extract<ToolResult, { kind: "advance" }>,
  message: string,
  heard: Set<string>,
): void {
  if (!heard.has(result.to)) {
    run.remember(result.to, { role: "user", content: message });
    heard.add(result.to);
  }
  run.remember(result.to, { role: "handoff", from, content: result.handoff ?? result.message });
  run.currentStep = result.to;
}

function answerTool(run: RunRecorder, step: string, call: ToolCall, content: string): void {
  run.remember(step, { role: "tool", toolCallId: call.id, name: call.name, content });
}

/**
 * The step's tool the call names and its arguments, parsed and valid; or, when the call is refused,
 * why (`refused`, for the log) and what the model is told (`content`).
 */
function acceptedCall(
  tools: readonly CompiledTool[],
  call: ToolCall,
): { tool: CompiledTool; args: unknown } | { refused: string; content: string } {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) {
    const known = tools.map((t) => t.name).join(", ");
    return {
      refused: `unknown tool`,
      content: `There is no tool "${call.name}" in this step. The tools are: ${known}.`,
    };
  }
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return {
      refused: "arguments are not JSON",
      content: `The arguments of ${call.name} are not valid JSON. Call it again with a JSON object.`,
    };
  }
  if (!tool.validate(args)) {
    const detail = describeErrors(tool.validate.errors);
    return {
      refused: detail,
      content: `Invalid arguments for ${call.name}: ${detail}. Call it again with arguments that match its schema.`,
    };
  }
  return { tool, args };
}

/**
 * Runs one tool call; returns undefined when the call was refused and the model was told why. A
 * tool whose method answers synchronously is not awaited: most do, and a turn calls several.
 */
function callTool(
  run: RunRecorder,
  stepName: string,
  step: Step,
  context: StepContext,
  tools: readonly CompiledTool[],
  call: ToolCall,
): ToolResult | undefined | Promise<ToolResult | undefined> {
  const accepted = acceptedCall(tools, call);
  if ("refused" in accepted) {
    answerTool(run, stepName, call, accepted.content);
    run.log({ step: stepName, kind: "tool", name: call.name, outcome: "invalid", detail: accepted.refused });
    return undefined;
  }
  const { tool, args } = accepted;
  // The step's state as the call found it: what the log's `wrote` is read against.
  const before = structuredClone(context.state);

  const threw = (error: unknown): never => {
    if (isFlowcheckError(error)) throw error;
    throw invalidTool(
      tool.name,
      `of ${run.flow.name}/${stepName} threw: ${(error as Error).message}. The turn was not applied.`,
    );
  };
  const settled = (raw: unknown): ToolResult => {
    const result = checkResult(raw, tool, run.flow);
    if (result.kind === "complete") run.output = result.output;
    answerTool(run, stepName, call, result.message);
    const wrote = writtenKeys(before, context.state);
    run.log({
      step: stepName,
      kind: "tool",
      name: tool.name,
      outcome: result.kind,
      ...(result.kind === "advance" ? { to: result.to } : {}),
      ...(wrote.length ? { wrote } : {}),
    });
    return result;
  };
  let raw: unknown;
  try {
    const handler = (step as unknown as Record<string, (a: unknown, c: StepContext) => unknown>)[tool.method]!;
    raw = handler.call(step, args, context);
  } catch (error) {
    return threw(error);
  }
  return typeof (raw as PromiseLike<unknown> | null)?.then === "function"
    ? Promise.resolve(raw).then(settled, threw)
    : settled(raw);
}

/** The keys of `state` a call added or changed, against `before`, its copy from before the call. */
function writtenKeys(before: Record<string, unknown>, state: Record<string, unknown>): string[] {
  return Object.keys(state).filter((key) => !(key in before) || !isDeepStrictEqual(state[key], before[key]));
}

function stepContext(run: RunRecorder, stepName: string, deps: TurnDependencies): StepContext {
  const clock = deps.clockOf(run.flow.name);
  return {
    flow: run.flow.name,
    step: stepName,
    state: run.stateOf(stepName),
    // One implementation for both overloads of each of these two, by name or class and by request or message.
    stateOf: ((step: StepClass | string) =>
      frozenCopy(run.steps[typeof step === "string" ? step : step.name] ?? {})) as StepContext["stateOf"],
    now: () => clock.now(),
    env: deps.env,
    services: run.flow.services,
    input: run.input,
    runChild: ((child: FlowDefinition, request: string | { message: string; input?: unknown }) =>
      runChild(
        run,
        stepName,
        child,
        typeof request === "string" ? { message: request } : request,
        deps,
      )) as StepContext["runChild"],
  };
}

async function runChild(
  parent: RunRecorder,
  parentStep: string,
  flow: FlowDefinition,
  request: { message: string; input?: unknown },
  deps: TurnDependencies,
): Promise<ChildOutcome> {
  if (!parent.flow.children.includes(flow)) {
    throw new FlowcheckError(
      "flow_invalid",
      `${parent.flow.name}/${parentStep} ran ${flow.name} as a child, but ${parent.flow.name} does not list it; ` +
        `add it to "children" in its defineFlow.`,
    );
  }
  const child = new RunRecorder(
    flow,
    parent.turn,
    {
      currentStep: flow.firstStep,
      runStatus: "running",
      steps: {},
      memory: {},
      execution: [],
      children: parent.children,
    },
    request.input,
  );
  const reply = await runTurn(child, request.message, deps);
  parent.children.push({
    flow: flow.name,
    parentStep,
    turn: parent.turn,
    runStatus: child.runStatus,
    currentStep: child.currentStep,
    steps: child.steps,
    memory: child.memory,
    execution: child.execution,
  });
  parent.log({ step: parentStep, kind: "child", name: flow.name, outcome: child.runStatus });
  const steps = child.steps;
  return child.runStatus === "completed"
    ? { runStatus: "completed", output: child.output, steps, reply }
    : { runStatus: child.runStatus, output: undefined, steps, reply };
}
