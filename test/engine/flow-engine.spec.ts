import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { beforeEach, describe, test, type TestContext } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp, type App } from "../../src/create-app.ts";
import {
  advance,
  complete,
  defineFlow,
  stay,
  Step,
  tool,
  scriptedText,
  scriptedToolCalls,
  type FlowEntry,
  type MemoryEntry,
  type ModelReply,
  type Script,
  type ScriptRequest,
  type StepContext,
} from "../../src/engine/index.ts";
import type { FlowEngine } from "../../src/engine/flow-engine.ts";
import {
  FLOW_MEMORY,
  SESSION_DOCUMENT_VERSION,
  type KeptAnswer,
  type SessionDocument,
  type SessionHead,
  type TurnWrite,
} from "../../src/engine/session-document.ts";
import type { SessionStore } from "../../src/engine/session-store.ts";
import { FlowcheckError, isFlowcheckError, type ErrorCode } from "../../src/errors.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { tempDir } from "../support/temp-path.ts";

// ---------------------------------------------------------------------------------------------
// Test flows. CursorFlow's model is driven by the user's message: "!name args | name args" makes
// the model call those tools with exactly those raw argument texts; anything else is echoed.
// ---------------------------------------------------------------------------------------------

/** How often each tool handler ran in the current test. */
const handlerCalls = { keep: 0, strict: 0, go: 0, boom: 0, wait: 0, finish: 0, spin: 0 };

/** Every request the scripted models saw in the current test, copied as it was sent. */
const seen: {
  flow: string;
  step: string;
  system: string;
  tools: string[];
  messages: MemoryEntry[];
  latest: MemoryEntry | undefined;
}[] = [];

/** What the `wait` tool awaits, so two turns can be held at the same point. */
let waitGate: () => Promise<void> = async () => undefined;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function record(request: ScriptRequest): void {
  seen.push({
    flow: request.context.flow,
    step: request.context.step,
    system: request.system,
    tools: request.tools.map((t) => t.name),
    messages: structuredClone([...request.messages]),
    latest: structuredClone(request.latest),
  });
}

interface FirstState {
  kept?: string[];
}

class SecondStep extends Step {
  systemPrompt(): string {
    return "You are SecondStep of CursorFlow.";
  }

  @tool({ name: "finish", description: "End the run.", parameters: { type: "object", additionalProperties: false } })
  finish() {
    handlerCalls.finish++;
    return complete();
  }
}

class FirstStep extends Step<FirstState> {
  systemPrompt(context: StepContext<FirstState>): string {
    return `You are FirstStep of CursorFlow. Notes kept so far: ${(context.state.kept ?? []).join(", ") || "none"}.`;
  }

  @tool({
    name: "keep",
    description: "Keep a note.",
    parameters: {
      type: "object",
      properties: { note: { type: "string", minLength: 1 } },
      required: ["note"],
      additionalProperties: false,
    },
  })
  async keep(args: { note: string }, context: StepContext<FirstState>) {
    handlerCalls.keep++;
    // Yield a few times, so turns that were not serialised would interleave here.
    await tick();
    await tick();
    (context.state.kept ??= []).push(args.note);
    return stay(`Kept ${args.note}.`);
  }

  @tool({
    name: "strict",
    description: "Count to a positive whole number.",
    parameters: {
      type: "object",
      properties: { count: { type: "integer", minimum: 1 } },
      required: ["count"],
      additionalProperties: false,
    },
  })
  strict(args: { count: number }) {
    handlerCalls.strict++;
    return stay(`Counted to ${args.count}.`);
  }

  @tool({ name: "go", description: "Move to SecondStep.", parameters: { type: "object", additionalProperties: false } })
  go() {
    handlerCalls.go++;
    return advance(SecondStep, "Moved to SecondStep.");
  }

  @tool({ name: "boom", description: "A tool with a bug.", parameters: { type: "object" } })
  boom(args: { later?: boolean }): Promise<never> {
    handlerCalls.boom++;
    // `later`: the failure comes as a rejected promise, which the engine awaits, rather than a throw.
    if (args.later) return Promise.reject(new Error("the tool exploded later"));
    throw new Error("the tool exploded");
  }

  @tool({ name: "wait", description: "Wait at the test's gate.", parameters: { type: "object" } })
  async wait() {
    handlerCalls.wait++;
    await waitGate();
    return stay("Waited.");
  }
}

const CursorFlow = defineFlow({
  name: "CursorFlow",
  description: "Two steps whose model follows the test's commands.",
  steps: [FirstStep, SecondStep],
});

/** "!keep {"note":"a"} | go" → tool calls with those names and raw argument texts. */
function commandedCalls(text: string): ModelReply {
  return {
    content: "",
    toolCalls: text
      .slice(1)
      .split(" | ")
      .map((part, index) => {
        const space = part.indexOf(" ");
        const name = space === -1 ? part : part.slice(0, space);
        return { id: `call_${index + 1}_${name}`, name, arguments: space === -1 ? "" : part.slice(space + 1) };
      }),
  };
}

const commandScript: Script = (request) => {
  record(request);
  const { latest, context } = request;
  if (latest?.role === "handoff") return scriptedText(`${context.step} is listening.`);
  if (latest?.role === "tool") return scriptedText(`${context.step} heard: ${latest.content}`);
  if (latest?.role === "user") {
    if (latest.content === "throw") throw new Error("the model is down");
    if (latest.content.startsWith("unscripted")) return undefined;
    if (latest.content.startsWith("!")) return commandedCalls(latest.content);
    return scriptedText(`${context.step} echo: ${latest.content}`);
  }
  return undefined;
};

class SpinStep extends Step {
  systemPrompt(): string {
    return "You are SpinStep; you spin forever.";
  }

  @tool({ name: "spin", description: "Spin once more.", parameters: { type: "object" } })
  spin() {
    handlerCalls.spin++;
    return stay("Spun. Spin again.");
  }
}

const LoopFlow = defineFlow({
  name: "LoopFlow",
  description: "A model that never stops calling tools.",
  steps: [SpinStep],
  maxModelCalls: 3,
});

const loopScript: Script = (request) => {
  record(request);
  if (request.latest?.role === "user" && request.latest.content === "hello") return scriptedText("Hello; say spin.");
  return scriptedToolCalls([{ name: "spin", args: {} }]);
};

class ChildB extends Step<{ done?: boolean }> {
  systemPrompt(): string {
    return "You are ChildB of ChildFlow.";
  }

  @tool({ name: "done", description: "Finish the child.", parameters: { type: "object" } })
  done(_args: unknown, context: StepContext<{ done?: boolean }>) {
    context.state.done = true;
    return complete("Child complete.");
  }
}

class ChildA extends Step {
  systemPrompt(): string {
    return "You are ChildA of ChildFlow.";
  }

  @tool({ name: "next", description: "Move to ChildB.", parameters: { type: "object" } })
  next() {
    return advance(ChildB, "On to ChildB.");
  }
}

const ChildFlow = defineFlow({ name: "ChildFlow", description: "A two-step child.", steps: [ChildA, ChildB] });

const childScript: Script = (request) => {
  record(request);
  const { context, latest } = request;
  if (context.step === "ChildA" && latest?.role === "user") {
    return latest.content === "stop"
      ? scriptedText("ChildA stopped early.")
      : scriptedToolCalls([{ name: "next", args: {} }]);
  }
  if (context.step === "ChildB" && latest?.role === "handoff") return scriptedToolCalls([{ name: "done", args: {} }]);
  if (latest?.role === "tool" && request.tools.length === 0) return scriptedText("Child finished.");
  return undefined;
};

class LoneStep extends Step {
  systemPrompt(): string {
    return "You are LoneStep of a flow nobody declared.";
  }
}

const UndeclaredFlow = defineFlow({
  name: "UndeclaredFlow",
  description: "Not a child of ParentFlow.",
  steps: [LoneStep],
});

interface ParentState {
  lastChild?: string;
}

class ParentStep extends Step<ParentState> {
  systemPrompt(): string {
    return "You are ParentStep of ParentFlow.";
  }

  @tool({
    name: "check",
    description: "Run the child flow on a text.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  })
  async check(args: { text: string }, context: StepContext<ParentState>) {
    const outcome = await context.runChild(ChildFlow, args.text);
    context.state.lastChild = outcome.runStatus;
    return stay(`Child ${outcome.runStatus}: ${outcome.reply}`);
  }

  @tool({ name: "rogue", description: "Run a flow that is not declared as a child.", parameters: { type: "object" } })
  async rogue(_args: unknown, context: StepContext<ParentState>) {
    await context.runChild(UndeclaredFlow, "hello");
    return stay("unreachable");
  }
}

const ParentFlow = defineFlow({
  name: "ParentFlow",
  description: "Runs ChildFlow from a tool.",
  steps: [ParentStep],
  children: [ChildFlow],
});

const testFlows: FlowEntry[] = [
  { flow: CursorFlow, scripts: { CursorFlow: commandScript } },
  { flow: LoopFlow, scripts: { LoopFlow: loopScript } },
  { flow: ParentFlow, scripts: { ParentFlow: commandScript, ChildFlow: childScript } },
];

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

/** The SQLite store, counting the writes that reached it. */
class CountingStore implements SessionStore {
  readonly inner: SqliteSessionStore;
  readonly writes: TurnWrite[] = [];
  /** Whole-session reads, the conversation included. */
  wholeReads = 0;
  headReads = 0;

  constructor(path: string) {
    this.inner = new SqliteSessionStore(path);
  }

  get description(): string {
    return this.inner.description;
  }

  fetchAll(id: string): Promise<SessionDocument | undefined> {
    this.wholeReads += 1;
    return this.inner.fetchAll(id);
  }

  fetchHead(id: string): Promise<SessionHead | undefined> {
    this.headReads += 1;
    return this.inner.fetchHead(id);
  }

  changeMark(): number {
    return this.inner.changeMark();
  }

  fetchAnswer(scope: string, key: string): Promise<KeptAnswer | undefined> {
    return this.inner.fetchAnswer(scope, key);
  }

  async create(write: TurnWrite): Promise<void> {
    await this.inner.create(write);
    this.writes.push(write);
  }

  async saveTurn(write: TurnWrite): Promise<void> {
    await this.inner.saveTurn(write);
    this.writes.push(write);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

interface Harness {
  app: App;
  engine: FlowEngine;
  store: CountingStore;
}

async function openApp(sqlitePath: string, flows: readonly FlowEntry[]): Promise<Harness> {
  const store = new CountingStore(sqlitePath);
  const app = await createApp({ flows, config: loadConfig({}), store, log: () => undefined });
  return { app, engine: app.engine, store };
}

/** One app on its own SQLite file, closed and removed after the test. */
async function harness(t: TestContext, flows: readonly FlowEntry[] = testFlows): Promise<Harness> {
  const dir = await tempDir("flow-engine");
  const opened = await openApp(join(dir.path, "sessions.sqlite"), flows);
  t.after(async () => {
    await opened.app.close();
    dir.remove();
  });
  return opened;
}

/** Two apps, each with its own connection, on one SQLite file; closed and removed after the test. */
async function twoApps(t: TestContext, prefix: string): Promise<{ one: Harness; two: Harness }> {
  const dir = await tempDir(prefix);
  const path = join(dir.path, "sessions.sqlite");
  const one = await openApp(path, testFlows);
  const two = await openApp(path, testFlows);
  t.after(async () => {
    await two.app.close();
    await one.app.close();
    dir.remove();
  });
  return { one, two };
}

async function stored(engine: FlowEngine, id: string): Promise<SessionDocument> {
  const document = await engine.fetchAll(id);
  assert.ok(document, `session ${id} should be stored`);
  return document;
}

/** Asserts that `promise` rejects with a FlowcheckError of `code`, and returns the error. */
async function rejectsWith(promise: Promise<unknown>, code: ErrorCode): Promise<FlowcheckError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof FlowcheckError, `expected a FlowcheckError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

const userTexts = (memory: readonly MemoryEntry[] | undefined) =>
  (memory ?? []).filter((m) => m.role === "user").map((m) => m.content);

beforeEach(() => {
  for (const key of Object.keys(handlerCalls) as (keyof typeof handlerCalls)[]) handlerCalls[key] = 0;
  seen.length = 0;
  waitGate = async () => undefined;
});

// ---------------------------------------------------------------------------------------------

describe("FlowEngine: sessions and the cursor", () => {
  test("a new session starts on the first step and is stored with turns 1 and runStatus running", async (t) => {
    const { engine, store } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: "hello" });
    assert.match(outcome.session, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepStrictEqual(outcome, {
      session: outcome.session,
      response: "FirstStep echo: hello",
      currentStep: "FirstStep",
      runStatus: "running",
      completed: false,
    });
    const document = await stored(engine, outcome.session);
    assert.equal(document.id, outcome.session);
    assert.equal(document.version, SESSION_DOCUMENT_VERSION);
    assert.equal(document.turns, 1);
    assert.deepStrictEqual(document.flow, { name: "CursorFlow", currentStep: "FirstStep" });
    assert.equal(document.runStatus, "running");
    assert.deepStrictEqual(document.children, []);
    assert.deepStrictEqual(document.execution, []);
    assert.deepStrictEqual(document.memory[FLOW_MEMORY], [
      { role: "user", content: "hello" },
      { role: "assistant", content: "FirstStep echo: hello" },
    ]);
    assert.ok(!Number.isNaN(Date.parse(document.createdAt)));
    assert.ok(Date.parse(document.updatedAt) >= Date.parse(document.createdAt));
    assert.equal(store.writes.length, 1);
    assert.equal(seen.length, 1);
    assert.deepStrictEqual(seen[0]!.tools, ["keep", "strict", "go", "boom", "wait"]);
    assert.equal(seen[0]!.system, "You are FirstStep of CursorFlow. Notes kept so far: none.");
  });

  test("stay keeps the cursor, the step's state is saved and the model's answer to the tool result is returned", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"apples"}' });
    assert.equal(handlerCalls.keep, 1);
    assert.equal(first.currentStep, "FirstStep");
    assert.equal(first.response, "FirstStep heard: Kept apples.");
    const second = await engine.chat({ session: first.session, message: '!keep {"note":"pears"}' });
    assert.equal(second.session, first.session);
    assert.equal(second.currentStep, "FirstStep");
    const document = await stored(engine, first.session);
    assert.equal(document.turns, 2);
    assert.deepStrictEqual(document.steps["FirstStep"], { kept: ["apples", "pears"] });
    // The prompt is built from the state as the tool left it.
    assert.equal(seen.at(-1)!.system, "You are FirstStep of CursorFlow. Notes kept so far: apples, pears.");
  });

  test("advance moves the cursor and the new step's model answers in the same turn", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: "!go" });
    assert.equal(handlerCalls.go, 1);
    assert.equal(outcome.currentStep, "SecondStep");
    assert.equal(outcome.runStatus, "running");
    assert.equal(outcome.response, "SecondStep is listening.");
    assert.deepStrictEqual(
      seen.map((request) => [request.step, request.tools]),
      [
        ["FirstStep", ["keep", "strict", "go", "boom", "wait"]],
        ["SecondStep", ["finish"]],
      ],
    );
    // The new step's model is handed the turn: the user's message, then the advance's message.
    assert.deepStrictEqual(seen[1]!.messages, [
      { role: "user", content: "!go" },
      { role: "handoff", from: "FirstStep", content: "Moved to SecondStep." },
    ]);
    const document = await stored(engine, outcome.session);
    assert.deepStrictEqual(document.flow, { name: "CursorFlow", currentStep: "SecondStep" });
    assert.deepStrictEqual(document.execution, [
      { seq: 1, turn: 1, step: "FirstStep", kind: "tool", name: "go", outcome: "advance", to: "SecondStep" },
    ]);
  });

  test("complete ends the run with runStatus completed and the closing model call is offered no tools", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "CursorFlow", message: "!go" });
    seen.length = 0;
    const last = await engine.chat({ session: first.session, message: "!finish" });
    assert.equal(handlerCalls.finish, 1);
    assert.deepStrictEqual(last, {
      session: first.session,
      response: "SecondStep heard: The flow is complete. Close the conversation.",
      currentStep: "SecondStep",
      runStatus: "completed",
      completed: true,
    });
    assert.deepStrictEqual(
      seen.map((request) => [request.step, request.tools]),
      [
        ["SecondStep", ["finish"]],
        ["SecondStep", []],
      ],
    );
    const document = await stored(engine, first.session);
    assert.equal(document.runStatus, "completed");
    assert.equal(document.turns, 2);
    await rejectsWith(engine.chat({ session: first.session, message: "anyone there?" }), "flow_completed");
    assert.equal((await stored(engine, first.session)).turns, 2);
  });

  test("tool calls after one that advanced in the same reply are not run and are logged as skipped", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({
      flow: "CursorFlow",
      message: '!go | keep {"note":"late"} | strict {"count":1}',
    });
    assert.equal(handlerCalls.go, 1);
    assert.equal(handlerCalls.keep, 0);
    assert.equal(handlerCalls.strict, 0);
    assert.equal(outcome.currentStep, "SecondStep");
    const document = await stored(engine, outcome.session);
    assert.deepStrictEqual(document.execution, [
      { seq: 1, turn: 1, step: "FirstStep", kind: "tool", name: "go", outcome: "advance", to: "SecondStep" },
      { seq: 2, turn: 1, step: "FirstStep", kind: "tool", name: "keep", outcome: "skipped" },
      { seq: 3, turn: 1, step: "FirstStep", kind: "tool", name: "strict", outcome: "skipped" },
    ]);
    assert.equal(document.steps["FirstStep"]?.["kept"], undefined);
    // Every call still gets an answer, so the step's memory stays a valid conversation.
    const toolAnswers = (document.memory["FirstStep"] ?? []).filter((m) => m.role === "tool");
    assert.deepStrictEqual(
      toolAnswers.map((m) => [m.role === "tool" ? m.toolCallId : "", m.content]),
      [
        ["call_1_go", "Moved to SecondStep."],
        ["call_2_keep", "Not run: an earlier call in this reply already ended the step."],
        ["call_3_strict", "Not run: an earlier call in this reply already ended the step."],
      ],
    );
  });

  test("a tool call after one that stayed in the same reply still runs", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({
      flow: "CursorFlow",
      message: '!keep {"note":"one"} | keep {"note":"two"} | go',
    });
    assert.equal(handlerCalls.keep, 2);
    assert.equal(handlerCalls.go, 1);
    assert.equal(outcome.currentStep, "SecondStep");
    assert.deepStrictEqual((await stored(engine, outcome.session)).steps["FirstStep"], { kept: ["one", "two"] });
  });

  test("each tool call's log entry names the state keys that call wrote, a change in place too, and a call that wrote none names none", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"one"}' });
    await engine.chat({ session: first.session, message: '!strict {"count":2} | keep {"note":"two"} | go' });
    assert.deepStrictEqual((await stored(engine, first.session)).execution, [
      { seq: 1, turn: 1, step: "FirstStep", kind: "tool", name: "keep", outcome: "stay", wrote: ["kept"] },
      { seq: 2, turn: 2, step: "FirstStep", kind: "tool", name: "strict", outcome: "stay" },
      // `keep` pushes onto the array it wrote in turn 1: the same key, changed in place.
      { seq: 3, turn: 2, step: "FirstStep", kind: "tool", name: "keep", outcome: "stay", wrote: ["kept"] },
      { seq: 4, turn: 2, step: "FirstStep", kind: "tool", name: "go", outcome: "advance", to: "SecondStep" },
    ]);
  });
});

describe("FlowEngine: refused tool calls", () => {
  test("invalid arguments never reach the handler, the model is told what was wrong, the cursor stays and the log says invalid", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: '!strict {"count":0}' });
    assert.equal(handlerCalls.strict, 0);
    assert.equal(outcome.currentStep, "FirstStep");
    assert.equal(outcome.runStatus, "running");
    const told =
      "Invalid arguments for strict: /count must be >= 1. Call it again with arguments that match its schema.";
    assert.deepStrictEqual(seen.at(-1)!.latest, {
      role: "tool",
      toolCallId: "call_1_strict",
      name: "strict",
      content: told,
    });
    assert.equal(outcome.response, `FirstStep heard: ${told}`);
    const document = await stored(engine, outcome.session);
    assert.deepStrictEqual(document.execution, [
      {
        seq: 1,
        turn: 1,
        step: "FirstStep",
        kind: "tool",
        name: "strict",
        outcome: "invalid",
        detail: "/count must be >= 1",
      },
    ]);

    const wrongType = await engine.chat({ session: outcome.session, message: '!strict {"count":"two","extra":true}' });
    assert.equal(handlerCalls.strict, 0);
    assert.equal(wrongType.currentStep, "FirstStep");
    const detail = (await stored(engine, outcome.session)).execution[1]?.detail ?? "";
    assert.match(detail, /\/count must be integer/);
    assert.match(detail, /has unknown property "extra"/);

    // The same tool with valid arguments does reach its handler.
    await engine.chat({ session: outcome.session, message: '!strict {"count":2}' });
    assert.equal(handlerCalls.strict, 1);
    assert.equal((await stored(engine, outcome.session)).execution[2]?.outcome, "stay");
  });

  test("an unknown tool name is refused, the model is told the step's tools and the log says invalid", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: "!launch_rockets {}" });
    assert.equal(outcome.currentStep, "FirstStep");
    assert.equal(
      seen.at(-1)!.latest?.content,
      'There is no tool "launch_rockets" in this step. The tools are: keep, strict, go, boom, wait.',
    );
    assert.deepStrictEqual((await stored(engine, outcome.session)).execution, [
      {
        seq: 1,
        turn: 1,
        step: "FirstStep",
        kind: "tool",
        name: "launch_rockets",
        outcome: "invalid",
        detail: "unknown tool",
      },
    ]);
    assert.deepStrictEqual(
      Object.values(handlerCalls),
      Object.values(handlerCalls).map(() => 0),
    );
  });

  test("a tool of another step is an unknown tool in this one", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: "!finish" });
    assert.equal(handlerCalls.finish, 0);
    assert.equal(outcome.runStatus, "running");
    assert.equal((await stored(engine, outcome.session)).execution[0]?.outcome, "invalid");
  });

  test("arguments that are not JSON never reach the handler and the model is asked for a JSON object", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: "!keep {note: apples" });
    assert.equal(handlerCalls.keep, 0);
    assert.equal(outcome.currentStep, "FirstStep");
    assert.equal(
      seen.at(-1)!.latest?.content,
      "The arguments of keep are not valid JSON. Call it again with a JSON object.",
    );
    const document = await stored(engine, outcome.session);
    assert.deepStrictEqual(document.execution, [
      {
        seq: 1,
        turn: 1,
        step: "FirstStep",
        kind: "tool",
        name: "keep",
        outcome: "invalid",
        detail: "arguments are not JSON",
      },
    ]);
    // What the model sent is kept verbatim, so a transcript shows the bad call.
    const call = (document.memory["FirstStep"] ?? []).find((m) => m.role === "assistant" && m.toolCalls?.length);
    assert.deepStrictEqual(call, {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1_keep", name: "keep", arguments: "{note: apples" }],
    });
  });

  test("JSON arguments that are not an object are refused by the schema", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "CursorFlow", message: '!keep ["apples"]' });
    assert.equal(handlerCalls.keep, 0);
    const [entry] = (await stored(engine, outcome.session)).execution;
    assert.equal(entry?.outcome, "invalid");
    assert.match(entry?.detail ?? "", /must be object/);
  });
});

describe("FlowEngine: failed turns are not applied", () => {
  test("a model that calls tools forever fails the turn with tool_loop_exceeded and stores nothing of it", async (t) => {
    const { engine, store } = await harness(t);
    const started = await engine.chat({ flow: "LoopFlow", message: "hello" });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(engine.chat({ session: started.session, message: "spin" }), "tool_loop_exceeded");
    assert.match(error.message, /LoopFlow\/SpinStep: the model called tools 3 times in one turn/);
    assert.equal(handlerCalls.spin, 3);
    assert.equal(seen.filter((request) => request.latest?.content !== "hello").length, 3);
    assert.deepStrictEqual(await stored(engine, started.session), before);
    assert.equal(store.writes.length, 1);
  });

  test("a first turn that exceeds the loop bound creates no session", async (t) => {
    const { engine, store } = await harness(t);
    await rejectsWith(engine.chat({ flow: "LoopFlow", message: "spin" }), "tool_loop_exceeded");
    assert.equal(handlerCalls.spin, 3);
    assert.equal(store.writes.length, 0);
  });

  test("a model that throws fails the turn with model_error and leaves the stored session unchanged", async (t) => {
    const { engine, store } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"first"}' });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(engine.chat({ session: started.session, message: "throw" }), "model_error");
    assert.match(error.message, /CursorFlow\/FirstStep: the model is down/);
    assert.equal(error.status, 502);
    assert.deepStrictEqual(await stored(engine, started.session), before);
    assert.equal(store.writes.length, 1);
    // The session goes on from where it was: the failed turn took no turn number.
    await engine.chat({ session: started.session, message: "again" });
    const after = await stored(engine, started.session);
    assert.equal(after.turns, 2);
    assert.deepStrictEqual(userTexts(after.memory[FLOW_MEMORY]), ['!keep {"note":"first"}', "again"]);
  });

  test("a tool that throws fails the turn with internal_error and leaves the stored session unchanged", async (t) => {
    const { engine } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"first"}' });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(
      engine.chat({ session: started.session, message: '!keep {"note":"second"} | boom' }),
      "internal_error",
    );
    assert.equal(handlerCalls.boom, 1);
    assert.match(error.message, /Tool "boom" of CursorFlow\/FirstStep threw: the tool exploded/);
    // The keep that ran before the failing tool is not stored either.
    assert.deepStrictEqual(await stored(engine, started.session), before);
  });

  test("a tool whose promise rejects fails the turn with internal_error, as one that throws does", async (t) => {
    const { engine } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"first"}' });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(
      engine.chat({ session: started.session, message: '!keep {"note":"second"} | boom {"later":true}' }),
      "internal_error",
    );
    assert.match(error.message, /Tool "boom" of CursorFlow\/FirstStep threw: the tool exploded later/);
    assert.deepStrictEqual(await stored(engine, started.session), before);
    // The session goes on: the failed turn left it as it was.
    const next = await engine.chat({ session: started.session, message: '!keep {"note":"third"}' });
    assert.equal(next.response, "FirstStep heard: Kept third.");
  });

  test("an unscripted prompt fails the turn with script_unmatched, quoting a preview of the prompt and the message", async (t) => {
    const { engine } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: "hello" });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(
      engine.chat({ session: started.session, message: "unscripted question" }),
      "script_unmatched",
    );
    assert.match(error.message, /The scripted model of CursorFlow has no answer for step FirstStep/);
    assert.ok(
      error.message.includes('System prompt: "You are FirstStep of CursorFlow. Notes kept so far: none."'),
      error.message,
    );
    assert.ok(error.message.includes('Latest message: user "unscripted question"'), error.message);
    assert.deepStrictEqual(await stored(engine, started.session), before);
  });
});

describe("FlowEngine: child flows", () => {
  test("a step that runs a declared child saves the child's run under children and keeps the parent's cursor", async (t) => {
    const { engine } = await harness(t);
    const outcome = await engine.chat({ flow: "ParentFlow", message: '!check {"text":"go on"}' });
    assert.equal(outcome.currentStep, "ParentStep");
    assert.equal(outcome.runStatus, "running");
    assert.equal(outcome.response, "ParentStep heard: Child completed: Child finished.");
    const document = await stored(engine, outcome.session);
    assert.deepStrictEqual(document.flow, { name: "ParentFlow", currentStep: "ParentStep" });
    assert.deepStrictEqual(document.steps["ParentStep"], { lastChild: "completed" });
    assert.equal(document.steps["ChildB"], undefined, "the child's state stays in the child's run");
    assert.equal(document.children.length, 1);
    const child = document.children[0]!;
    assert.equal(child.flow, "ChildFlow");
    assert.equal(child.parentStep, "ParentStep");
    assert.equal(child.turn, 1);
    assert.equal(child.runStatus, "completed");
    assert.equal(child.currentStep, "ChildB");
    assert.deepStrictEqual(child.steps["ChildB"], { done: true });
    assert.deepStrictEqual(child.execution, [
      { seq: 1, turn: 1, step: "ChildA", kind: "tool", name: "next", outcome: "advance", to: "ChildB" },
      { seq: 2, turn: 1, step: "ChildB", kind: "tool", name: "done", outcome: "complete", wrote: ["done"] },
    ]);
    assert.deepStrictEqual(child.memory[FLOW_MEMORY], [
      { role: "user", content: "go on" },
      { role: "assistant", content: "Child finished." },
    ]);
    // A hand-off inside the child is the child's: ChildB is handed the child's message.
    assert.deepStrictEqual(child.memory["ChildB"]?.slice(0, 2), [
      { role: "user", content: "go on" },
      { role: "handoff", from: "ChildA", content: "On to ChildB." },
    ]);
    // The parent's log has the child's run, then the tool that ran it.
    assert.deepStrictEqual(document.execution, [
      { seq: 1, turn: 1, step: "ParentStep", kind: "child", name: "ChildFlow", outcome: "completed" },
      { seq: 2, turn: 1, step: "ParentStep", kind: "tool", name: "check", outcome: "stay", wrote: ["lastChild"] },
    ]);
    // The child's model was asked as ChildFlow under its own step names.
    assert.deepStrictEqual(
      seen.filter((request) => request.flow === "ChildFlow").map((request) => request.step),
      ["ChildA", "ChildB", "ChildB"],
    );
  });

  test("a child that does not complete is saved as running and each run is kept", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "ParentFlow", message: '!check {"text":"stop"}' });
    assert.equal(first.response, "ParentStep heard: Child running: ChildA stopped early.");
    await engine.chat({ session: first.session, message: '!check {"text":"go on"}' });
    const document = await stored(engine, first.session);
    assert.deepStrictEqual(
      document.children.map((child) => [child.flow, child.parentStep, child.turn, child.runStatus, child.currentStep]),
      [
        ["ChildFlow", "ParentStep", 1, "running", "ChildA"],
        ["ChildFlow", "ParentStep", 2, "completed", "ChildB"],
      ],
    );
    assert.equal(document.flow.currentStep, "ParentStep");
    assert.deepStrictEqual(document.steps["ParentStep"], { lastChild: "completed" });
  });

  test("running a child the flow does not declare fails with flow_invalid and stores nothing", async (t) => {
    const { engine, store } = await harness(t);
    const started = await engine.chat({ flow: "ParentFlow", message: "hello" });
    const before = await stored(engine, started.session);
    const error = await rejectsWith(engine.chat({ session: started.session, message: "!rogue" }), "flow_invalid");
    assert.match(
      error.message,
      /ParentFlow\/ParentStep ran UndeclaredFlow as a child, but ParentFlow does not list it/,
    );
    assert.deepStrictEqual(await stored(engine, started.session), before);
    assert.equal(store.writes.length, 1);
  });
});

describe("FlowEngine: memory and the execution log", () => {
  test("each step's messages are in its own namespace and the user-visible conversation is in memory.flow", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"n1"}' });
    await engine.chat({ session: first.session, message: "!go" });
    await engine.chat({ session: first.session, message: "still here" });
    const { memory } = await stored(engine, first.session);
    assert.deepStrictEqual(Object.keys(memory).sort(), ["FirstStep", "SecondStep", "flow"]);
    assert.deepStrictEqual(memory[FLOW_MEMORY], [
      { role: "user", content: '!keep {"note":"n1"}' },
      { role: "assistant", content: "FirstStep heard: Kept n1." },
      { role: "user", content: "!go" },
      { role: "assistant", content: "SecondStep is listening." },
      { role: "user", content: "still here" },
      { role: "assistant", content: "SecondStep echo: still here" },
    ]);
    assert.deepStrictEqual(memory["FirstStep"], [
      { role: "user", content: '!keep {"note":"n1"}' },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1_keep", name: "keep", arguments: '{"note":"n1"}' }] },
      { role: "tool", toolCallId: "call_1_keep", name: "keep", content: "Kept n1." },
      { role: "assistant", content: "FirstStep heard: Kept n1." },
      { role: "user", content: "!go" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1_go", name: "go", arguments: "" }] },
      { role: "tool", toolCallId: "call_1_go", name: "go", content: "Moved to SecondStep." },
    ]);
    assert.deepStrictEqual(memory["SecondStep"], [
      { role: "user", content: "!go" },
      { role: "handoff", from: "FirstStep", content: "Moved to SecondStep." },
      { role: "assistant", content: "SecondStep is listening." },
      { role: "user", content: "still here" },
      { role: "assistant", content: "SecondStep echo: still here" },
    ]);
    // A step's model sees its own namespace only.
    assert.deepStrictEqual(seen.at(-1)!.messages, memory["SecondStep"]!.slice(0, 4));
  });

  test("the execution log's seq runs 1, 2, 3… across turns and each entry carries its turn", async (t) => {
    const { engine } = await harness(t);
    const first = await engine.chat({ flow: "CursorFlow", message: '!keep {"note":"a"}' });
    await engine.chat({ session: first.session, message: '!strict {"count":0} | keep {"note":"b"}' });
    await engine.chat({ session: first.session, message: "just talking" });
    await engine.chat({ session: first.session, message: '!go | keep {"note":"c"}' });
    await engine.chat({ session: first.session, message: "!finish" });
    const document = await stored(engine, first.session);
    assert.equal(document.turns, 5);
    assert.deepStrictEqual(
      document.execution.map((entry) => [entry.seq, entry.turn, entry.step, entry.name, entry.outcome]),
      [
        [1, 1, "FirstStep", "keep", "stay"],
        [2, 2, "FirstStep", "strict", "invalid"],
        [3, 2, "FirstStep", "keep", "stay"],
        [4, 4, "FirstStep", "go", "advance"],
        [5, 4, "FirstStep", "keep", "skipped"],
        [6, 5, "SecondStep", "finish", "complete"],
      ],
    );
  });
});

describe("FlowEngine: concurrency", () => {
  test("20 concurrent turns on one session are all applied one after another in arrival order", async (t) => {
    const { engine } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: "start" });
    const notes = Array.from({ length: 20 }, (_, i) => `m${i}`);
    const outcomes = await Promise.all(
      notes.map((note) => engine.chat({ session: started.session, message: `!keep {"note":"${note}"}` })),
    );
    assert.deepStrictEqual(
      outcomes.map((outcome) => outcome.response),
      notes.map((note) => `FirstStep heard: Kept ${note}.`),
    );
    assert.equal(handlerCalls.keep, 20);
    const document = await stored(engine, started.session);
    assert.equal(document.turns, 21);
    assert.deepStrictEqual(document.steps["FirstStep"], { kept: notes });
    assert.deepStrictEqual(userTexts(document.memory[FLOW_MEMORY]), [
      "start",
      ...notes.map((note) => `!keep {"note":"${note}"}`),
    ]);
    assert.deepStrictEqual(
      document.execution.map((entry) => [entry.seq, entry.turn]),
      notes.map((_, i) => [i + 1, i + 2]),
    );
    // Each turn's prompt saw every earlier turn's note: none ran on a stale copy.
    const prompts = seen.filter((request) => request.latest?.role === "tool").map((request) => request.system);
    assert.deepStrictEqual(
      prompts,
      notes.map((_, i) => `You are FirstStep of CursorFlow. Notes kept so far: ${notes.slice(0, i + 1).join(", ")}.`),
    );
  });

  test("two engines racing on one session in one SQLite file: the loser plays its turn again on the winner's, and nothing is half-written", async (t) => {
    const { one, two } = await twoApps(t, "flow-engine-race");
    const started = await one.engine.chat({ flow: "CursorFlow", message: "start" });
    const before = await stored(two.engine, started.session);
    assert.equal(before.turns, 1);

    // Both turns load the session, then meet at the gate before either saves.
    let arrived = 0;
    let open!: () => void;
    const bothArrived = new Promise<void>((resolve) => (open = resolve));
    waitGate = () => {
      if (++arrived === 2) open();
      return bothArrived;
    };
    const results = await Promise.all([
      one.engine.chat({ session: started.session, message: '!wait | keep {"note":"from one"}' }),
      two.engine.chat({ session: started.session, message: '!wait | keep {"note":"from two"}' }),
    ]);
    // Two runs met at the gate; the one whose save was refused ran a third time, on the saved turn.
    assert.equal(handlerCalls.wait, 3);
    assert.deepStrictEqual(
      results.map((result) => result.session),
      [started.session, started.session],
    );

    const after = await stored(one.engine, started.session);
    assert.deepStrictEqual(await stored(two.engine, started.session), after);
    assert.equal(after.turns, 3);
    const kept = (after.steps["FirstStep"] as { kept: string[] }).kept;
    assert.deepStrictEqual([...kept].sort(), ["from one", "from two"], "each turn is applied exactly once");
    assert.deepStrictEqual(
      userTexts(after.memory[FLOW_MEMORY]),
      ["start", ...kept.map((note) => `!wait | keep {"note":"${note}"}`)],
      "the memory holds the turns in the order they were saved",
    );
    assert.deepStrictEqual(
      after.execution.map((entry) => [entry.seq, entry.turn, entry.name]),
      [
        [1, 2, "wait"],
        [2, 2, "keep"],
        [3, 3, "wait"],
        [4, 3, "keep"],
      ],
    );
  });

  test("an engine reads nothing back while only it writes, and the session's head, then the whole session, after another engine's turn", async (t) => {
    const { one, two } = await twoApps(t, "flow-engine-recent");
    const started = await one.engine.chat({ flow: "CursorFlow", message: '!keep {"note":"a"}' });
    await one.engine.chat({ session: started.session, message: '!keep {"note":"b"}' });
    assert.deepEqual([one.store.headReads, one.store.wholeReads], [0, 0], "one's own turns read nothing back");
    await two.engine.chat({ session: started.session, message: '!keep {"note":"c"}' });
    await two.engine.chat({ session: started.session, message: '!keep {"note":"d"}' });
    assert.deepEqual(
      [two.store.headReads, two.store.wholeReads],
      [1, 1],
      "two reads the session once, then keeps what it saved",
    );
    await one.engine.chat({ session: started.session, message: '!keep {"note":"e"}' });
    assert.deepEqual(
      [one.store.headReads, one.store.wholeReads],
      [1, 1],
      "two's turns in between make one read the session again",
    );

    const after = await stored(one.engine, started.session);
    assert.deepStrictEqual(after.steps["FirstStep"], { kept: ["a", "b", "c", "d", "e"] });
    assert.deepStrictEqual(
      userTexts(after.memory[FLOW_MEMORY]),
      ["a", "b", "c", "d", "e"].map((note) => `!keep {"note":"${note}"}`),
    );
    assert.deepStrictEqual(
      after.execution.map((entry) => [entry.seq, entry.turn]),
      [
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
      ],
    );
  });

  test("a write to another session by another connection makes the engine check the head, and finds its own session unchanged", async (t) => {
    const { one, two } = await twoApps(t, "flow-engine-mark");
    const mine = await one.engine.chat({ flow: "CursorFlow", message: '!keep {"note":"a"}' });
    await two.engine.chat({ flow: "CursorFlow", message: '!keep {"note":"elsewhere"}' });
    await one.engine.chat({ session: mine.session, message: '!keep {"note":"b"}' });
    assert.deepEqual(
      [one.store.headReads, one.store.wholeReads],
      [1, 0],
      "the head shows the kept conversation is still the stored one",
    );
    assert.deepStrictEqual((await stored(one.engine, mine.session)).steps["FirstStep"], { kept: ["a", "b"] });
  });

  test("a turn whose save is refused twice is answered session_conflict and stores nothing", async (t) => {
    const { engine, store } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: "start" });
    const before = await stored(engine, started.session);
    let refused = 0;
    store.saveTurn = async (write) => {
      refused += 1;
      throw new FlowcheckError("session_conflict", `refused save of turn ${write.head.turns}`);
    };
    await assert.rejects(engine.chat({ session: started.session, message: '!keep {"note":"x"}' }), (error) =>
      isFlowcheckError(error, "session_conflict"),
    );
    assert.equal(refused, 2, "the turn is played once more, then refused");
    assert.deepStrictEqual(await stored(engine, started.session), before);
  });
});

describe("FlowEngine: flows and requests", () => {
  test("listFlows lists each registered flow's name, description and step names", async (t) => {
    const { engine } = await harness(t);
    assert.deepStrictEqual(engine.listFlows(), [
      {
        name: "CursorFlow",
        description: "Two steps whose model follows the test's commands.",
        steps: ["FirstStep", "SecondStep"],
      },
      { name: "LoopFlow", description: "A model that never stops calling tools.", steps: ["SpinStep"] },
      { name: "ParentFlow", description: "Runs ChildFlow from a tool.", steps: ["ParentStep"] },
    ]);
  });

  test("starting a session of an unknown flow fails with unknown_flow and lists the flows", async (t) => {
    const { engine, store } = await harness(t);
    const error = await rejectsWith(engine.chat({ flow: "NoSuchFlow", message: "hello" }), "unknown_flow");
    assert.equal(error.message, 'There is no flow "NoSuchFlow". The flows are: CursorFlow, LoopFlow, ParentFlow.');
    assert.equal(error.status, 404);
    assert.throws(
      () => engine.flow("ChildFlow"),
      (thrown: unknown) => thrown instanceof FlowcheckError && thrown.code === "unknown_flow",
    );
    assert.equal(store.writes.length, 0);
    assert.deepStrictEqual(seen, []);
  });

  test("engine.chat reports a bad request as a rejected promise, never a synchronous throw", async (t) => {
    const { engine } = await harness(t);
    let returned: Promise<unknown> | undefined;
    assert.doesNotThrow(() => {
      returned = engine.chat({ flow: "NoSuchFlow", message: "hello" });
    });
    await rejectsWith(returned!, "unknown_flow");
    assert.doesNotThrow(() => {
      returned = engine.chat({ message: "no flow, no session" });
    });
    await rejectsWith(returned!, "invalid_request");
  });

  test("a message to a session that does not exist fails with session_not_found", async (t) => {
    const { engine } = await harness(t);
    const id = randomUUID();
    const error = await rejectsWith(engine.chat({ session: id, message: "hello" }), "session_not_found");
    assert.ok(error.message.includes(id));
  });

  test("a message naming another flow than the session's fails with invalid_request and is not applied", async (t) => {
    const { engine } = await harness(t);
    const started = await engine.chat({ flow: "CursorFlow", message: "hello" });
    const error = await rejectsWith(
      engine.chat({ session: started.session, flow: "LoopFlow", message: "hello" }),
      "invalid_request",
    );
    assert.match(error.message, /belongs to CursorFlow, not LoopFlow/);
    assert.equal((await stored(engine, started.session)).turns, 1);
    const same = await engine.chat({ session: started.session, flow: "CursorFlow", message: "again" });
    assert.equal(same.session, started.session);
  });
});

describe("FlowEngine: BasicFlow on its scripted model", () => {
  async function reachAddressStep(engine: FlowEngine): Promise<string> {
    const first = await engine.chat({ flow: "BasicFlow", message: "John Doe" });
    assert.equal(first.currentStep, "NameStep");
    const second = await engine.chat({ session: first.session, message: "John Wick" });
    assert.equal(second.currentStep, "WeatherStep");
    const third = await engine.chat({ session: first.session, message: "LA, NYC" });
    assert.equal(third.currentStep, "AddressStep");
    return first.session;
  }

  test("BasicFlow refuses a placeholder name, saves a real one, the weather and a checked address, then completes", async (t) => {
    const { engine } = await harness(t, [basicFlowEntry]);
    const first = await engine.chat({ flow: "BasicFlow", message: "John Doe" });
    assert.equal(first.currentStep, "NameStep");
    assert.equal(first.runStatus, "running");
    assert.match(first.response, /"John Doe" looks like a placeholder/);
    assert.equal((await stored(engine, first.session)).steps["NameStep"]?.["name"], undefined);

    const second = await engine.chat({ session: first.session, message: "John Wick" });
    assert.equal(second.currentStep, "WeatherStep");
    assert.match(second.response, /Nice to meet you, John Wick\./);
    assert.equal((await stored(engine, first.session)).steps["NameStep"]?.["name"], "John Wick");

    const third = await engine.chat({ session: first.session, message: "LA, NYC" });
    assert.equal(third.currentStep, "AddressStep");
    assert.match(third.response, /LA 72°F, NYC 64°F/);
    const afterWeather = await stored(engine, first.session);
    assert.equal(afterWeather.steps["WeatherStep"]?.["city_LA"], 72);
    assert.equal(afterWeather.steps["WeatherStep"]?.["city_NYC"], 64);

    const last = await engine.chat({ session: first.session, message: "1600 SW Murray Blvd, Beaverton, OR 97006" });
    assert.equal(last.runStatus, "completed");
    assert.equal(last.completed, true);
    assert.match(last.response, /1600 SW Murray Blvd, Beaverton, OR 97006 is saved/);
    const document = await stored(engine, first.session);
    assert.equal(document.turns, 4);
    assert.equal(document.runStatus, "completed");
    assert.deepStrictEqual(document.steps["AddressStep"]?.["address"], {
      street: "1600 SW Murray Blvd",
      city: "Beaverton",
      state: "OR",
      zip: "97006",
    });
    assert.equal(document.children.length, 1);
    const check = document.children[0]!;
    assert.equal(check.flow, "AddressCheck");
    assert.equal(check.parentStep, "AddressStep");
    assert.equal(check.runStatus, "completed");
    assert.equal((check.steps["NormalizeAddressStep"]?.["address"] as { zip?: string } | undefined)?.zip, "97006");
  });

  test("BasicFlow stays on AddressStep when the AddressCheck child refuses a ZIP code", async (t) => {
    const { engine } = await harness(t, [basicFlowEntry]);
    const session = await reachAddressStep(engine);
    const outcome = await engine.chat({ session, message: "1600 SW Murray Blvd, Beaverton, OR 9700" });
    assert.equal(outcome.currentStep, "AddressStep");
    assert.equal(outcome.runStatus, "running");
    assert.match(outcome.response, /The ZIP code "9700" is not 5 digits/);
    const document = await stored(engine, session);
    assert.equal(document.steps["AddressStep"]?.["address"], undefined);
    assert.deepStrictEqual(
      document.children.map((child) => [child.flow, child.parentStep, child.runStatus]),
      [["AddressCheck", "AddressStep", "running"]],
    );
  });
});
