import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { createApp } from "../../../src/create-app.ts";
import {
  complete,
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  stay,
  Step,
  tool,
  type FlowDefinition,
  type FlowEntry,
  type Script,
  type StepContext,
} from "../../../src/engine/index.ts";
import type { FlowEngine } from "../../../src/engine/flow-engine.ts";
import type { SessionDocument } from "../../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { mutatedFlow } from "../../../src/testing/strength/mutated-flow.ts";
import type { Mutant } from "../../../src/testing/strength/mutant.ts";
import { basicFlowEntry } from "../../fixtures/flows/index.ts";
import { DROP_NAME } from "../../support/drop-name-mutant.ts";
import { ledgerFlows } from "../../support/ledger-flow.ts";
import { tempDir } from "../../support/temp-path.ts";

const NAME = "John Wick";
const CITIES = "LA, NYC";
const ADDRESS = "1600 SW Murray Blvd, Beaverton, OR 97006";

/** An app serving `flows`, each as `mutant` changes it, on a SQLite file of its own; closed and removed after the test. */
async function engineWith(t: TestContext, mutant: Mutant | undefined, flows: readonly FlowEntry[] = [basicFlowEntry]) {
  const dir = await tempDir("mutant");
  const app = await createApp({
    flows: mutant ? flows.map((entry) => ({ ...entry, flow: mutatedFlow(entry.flow, mutant) })) : flows,
    config: loadConfig({}),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
    log: () => undefined,
  });
  t.after(async () => {
    await app.close();
    dir.remove();
  });
  return app.engine;
}

/** Plays `messages` as one session of `flow`, and gives the session as stored after them. */
async function play(engine: FlowEngine, messages: readonly string[], flow = "BasicFlow"): Promise<SessionDocument> {
  let session: string | undefined;
  for (const message of messages) {
    const outcome = await engine.chat(session === undefined ? { flow, message } : { session, message });
    session = outcome.session;
  }
  const document = await engine.fetchAll(session!);
  assert.ok(document, "the session should be stored");
  return document;
}

function toolMutant(step: string, tool: string, change: Extract<Mutant, { tool: string }>["change"]): Mutant {
  return { id: `BasicFlow/${step}/${tool}: ${change.kind}`, flow: "BasicFlow", step, tool, change };
}

function addressChild(change: Extract<Mutant, { child: string }>["change"]): Mutant {
  const id = `BasicFlow/AddressStep/AddressCheck: ${change.kind}`;
  return { id, flow: "BasicFlow", step: "AddressStep", child: "AddressCheck", change };
}

/** What a turn's mutant could change: everything stored but the session's id and times. */
function behaviour(document: SessionDocument) {
  const { flow, runStatus, steps, children, memory, execution } = document;
  return { flow, runStatus, steps, children, memory, execution };
}

// CodeFlow: AskStep runs CodeChild, whose tool completes with an output, and saves that output.

class QuoteStep extends Step {
  systemPrompt(): string {
    return "Give the code.";
  }

  @tool({
    name: "give_code",
    description: "Give the code.",
    parameters: { type: "object", additionalProperties: false },
  })
  giveCode() {
    return complete("The code is given.", 7);
  }
}

const CodeChild = defineFlow({ name: "CodeChild", description: "Gives a code.", steps: [QuoteStep] });

class AskStep extends Step<{ output?: unknown }> {
  systemPrompt(): string {
    return "Ask the child for the code.";
  }

  @tool({
    name: "ask_code",
    description: "Ask for the code.",
    parameters: { type: "object", additionalProperties: false },
  })
  async askCode(_args: unknown, context: StepContext<{ output?: unknown }>) {
    const outcome = await context.runChild(CodeChild, "The code, please.");
    context.state.output = outcome.output ?? "none";
    return stay("Asked.");
  }
}

const CodeFlow = defineFlow({
  name: "CodeFlow",
  description: "Saves a child's code.",
  steps: [AskStep],
  children: [CodeChild],
});

/** Either flow's model: calls its one tool on the user's message, then answers in words. */
const callThenAnswer =
  (name: string): Script =>
  ({ latest }) =>
    latest?.role === "user" ? scriptedToolCalls([{ name, args: {} }]) : scriptedText("Done.");

const codeFlowEntry: FlowEntry = {
  flow: CodeFlow,
  scripts: { CodeFlow: callThenAnswer("ask_code"), CodeChild: callThenAnswer("give_code") },
};

async function playCodeFlow(engine: FlowEngine): Promise<SessionDocument> {
  const outcome = await engine.chat({ flow: "CodeFlow", message: "Go." });
  const document = await engine.fetchAll(outcome.session);
  assert.ok(document);
  return document;
}

describe("a flow mutated before the app is built does what the mutant changes, at its place only", () => {
  test("without a mutant, or with one whose place never runs, BasicFlow's stored session is the same", async (t) => {
    const turns = [NAME, CITIES, ADDRESS];
    const plain = await play(await engineWith(t, undefined), turns);
    assert.equal(plain.runStatus, "completed");
    const elsewhere: Mutant[] = [
      { ...DROP_NAME, flow: "OtherFlow" },
      toolMutant("WeatherStep", "save_name", { kind: "drop-write", key: "name" }),
      { ...addressChild({ kind: "skip-child" }), step: "NameStep" },
      {
        id: "BasicFlow/AddressStep: drop-handoff",
        flow: "BasicFlow",
        step: "AddressStep",
        change: { kind: "drop-handoff" },
      },
    ];
    for (const mutant of elsewhere) {
      assert.deepEqual(behaviour(await play(await engineWith(t, mutant), turns)), behaviour(plain), mutant.id);
    }
  });

  test("drop-write puts the key back as the call found it: absent stays absent", async (t) => {
    const engine = await engineWith(t, DROP_NAME);
    const document = await play(engine, [NAME]);
    assert.equal(document.flow.currentStep, "WeatherStep");
    assert.deepEqual(document.steps["NameStep"], {});
  });

  test("change-value changes the value the call wrote, and leaves one a later call did not write", async (t) => {
    const engine = await engineWith(
      t,
      toolMutant("WeatherStep", "get_weather", { kind: "change-value", key: "city_LA" }),
    );
    const document = await play(engine, [NAME, CITIES]);
    // The NYC call found city_LA already changed and did not write it: changed once, not twice.
    assert.deepEqual(document.steps["WeatherStep"], { city_LA: 73, city_NYC: 64 });
    const named = await play(
      await engineWith(t, toolMutant("NameStep", "save_name", { kind: "change-value", key: "name" })),
      [NAME],
    );
    assert.equal(named.steps["NameStep"]?.["name"], `${NAME}·`);
  });

  test("advance-to-stay keeps the cursor on the step, and the log records a stay", async (t) => {
    const engine = await engineWith(t, toolMutant("WeatherStep", "get_weather", { kind: "advance-to-stay" }));
    const document = await play(engine, [NAME, CITIES]);
    assert.equal(document.flow.currentStep, "WeatherStep");
    assert.deepEqual(document.steps["WeatherStep"], { city_LA: 72, city_NYC: 64 });
    assert.deepEqual(
      document.execution.filter((entry) => entry.name === "get_weather").map((entry) => entry.outcome),
      ["stay", "stay"],
    );
  });

  test("stay-to-advance moves the cursor where a refusal kept it, the state unwritten", async (t) => {
    const engine = await engineWith(
      t,
      toolMutant("NameStep", "save_name", { kind: "stay-to-advance", to: "WeatherStep" }),
    );
    const document = await play(engine, ["John Doe"]);
    assert.equal(document.flow.currentStep, "WeatherStep");
    assert.deepEqual(document.steps["NameStep"], {});
    assert.deepEqual(document.execution.at(-1), {
      seq: 1,
      turn: 1,
      step: "NameStep",
      kind: "tool",
      name: "save_name",
      outcome: "advance",
      to: "WeatherStep",
    });
  });

  test("advance-elsewhere moves the cursor to the mutant's step, and the log says so", async (t) => {
    const engine = await engineWith(
      t,
      toolMutant("NameStep", "save_name", { kind: "advance-elsewhere", to: "AddressStep" }),
    );
    const document = await play(engine, [NAME]);
    assert.equal(document.flow.currentStep, "AddressStep");
    assert.equal(document.steps["NameStep"]?.["name"], NAME);
    assert.equal(document.execution.at(-1)?.to, "AddressStep");
  });

  test("advance-elsewhere to a step the flow lacks fails the turn as such a tool would", async (t) => {
    const engine = await engineWith(
      t,
      toolMutant("NameStep", "save_name", { kind: "advance-elsewhere", to: "NoStep" }),
    );
    await assert.rejects(engine.chat({ flow: "BasicFlow", message: NAME }), /advanced to "NoStep"/);
  });

  test("withhold-complete leaves the run going after the address is saved, with no output", async (t) => {
    const engine = await engineWith(t, toolMutant("AddressStep", "check_address", { kind: "withhold-complete" }));
    const document = await play(engine, [NAME, CITIES, ADDRESS]);
    assert.equal(document.runStatus, "running");
    assert.equal(document.flow.currentStep, "AddressStep");
    assert.equal((document.steps["AddressStep"]?.["address"] as { zip?: string } | undefined)?.zip, "97006");
    assert.equal(document.execution.findLast((entry) => entry.name === "check_address")?.outcome, "stay");
  });

  test("drop-handoff leaves the next step's hand-off entry empty, still in its memory", async (t) => {
    const mutant: Mutant = { id: "x", flow: "BasicFlow", step: "NameStep", change: { kind: "drop-handoff" } };
    const document = await play(await engineWith(t, mutant), [NAME]);
    assert.deepEqual(
      document.memory["WeatherStep"]?.filter((entry) => entry.role === "handoff"),
      [{ role: "handoff", from: "NameStep", content: "" }],
    );
    assert.equal(document.flow.currentStep, "WeatherStep");
  });

  test("skip-child never runs the child: nothing is kept or logged of it, and the address is not saved", async (t) => {
    const document = await play(await engineWith(t, addressChild({ kind: "skip-child" })), [NAME, CITIES, ADDRESS]);
    assert.deepEqual(document.children, []);
    assert.equal(document.runStatus, "running");
    assert.equal(document.steps["AddressStep"]?.["address"], undefined);
    assert.ok(!document.execution.some((entry) => entry.kind === "child"));
  });

  test("a tool mutant in the child flow applies inside the child's run", async (t) => {
    const mutant: Mutant = {
      id: "AddressCheck/NormalizeAddressStep/normalize_address: drop-write address",
      flow: "AddressCheck",
      step: "NormalizeAddressStep",
      tool: "normalize_address",
      change: { kind: "drop-write", key: "address" },
    };
    const document = await play(await engineWith(t, mutant), [NAME, CITIES, ADDRESS]);
    assert.deepEqual(document.children[0]?.steps["NormalizeAddressStep"], {});
    assert.equal(document.children[0]?.runStatus, "completed");
    assert.equal(document.steps["AddressStep"]?.["address"], undefined);
    assert.equal(document.runStatus, "running");
  });

  test("drop-child-output runs the child as usual, and the parent gets no output", async (t) => {
    const mutant: Mutant = {
      id: "y",
      flow: "CodeFlow",
      step: "AskStep",
      child: "CodeChild",
      change: { kind: "drop-child-output" },
    };
    const plain = await playCodeFlow(await engineWith(t, undefined, [codeFlowEntry]));
    assert.equal(plain.steps["AskStep"]?.["output"], 7);
    const mutated = await playCodeFlow(await engineWith(t, mutant, [codeFlowEntry]));
    assert.equal(mutated.steps["AskStep"]?.["output"], "none");
    assert.deepEqual(mutated.children, plain.children);
  });
});

/** Who `flow` is made of, by reference: its step classes and their tool methods, renderers and children. */
function definitionParts(flow: FlowDefinition): unknown {
  const stepClasses = flow.stepNames.map((name) => flow.step(name)!);
  return {
    steps: [...flow.steps],
    stepClasses,
    methods: stepClasses.map((stepClass) =>
      flow
        .tools(stepClass.name)
        .map((tool) => (stepClass.prototype as unknown as Record<string, unknown>)[tool.method]),
    ),
    renderers: { ...flow.renderers },
    children: flow.children.map(definitionParts),
  };
}

/** What a session of `flow` stored after `messages`, and its CSV where the flow renders one. */
async function played(engine: FlowEngine, messages: readonly string[], flow: string) {
  const document = await play(engine, messages, flow);
  return { ...behaviour(document), csv: await engine.render(document.id, "text/csv") };
}

const [ledgerEntry] = ledgerFlows;

/** One mutant of each kind a definition takes, with the flow it mutates and the messages that reach it. */
const EACH_KIND: { mutant: Mutant; entry: FlowEntry; messages: string[] }[] = [
  { mutant: DROP_NAME, entry: basicFlowEntry, messages: [NAME] },
  {
    mutant: toolMutant("NameStep", "save_name", { kind: "change-value", key: "name" }),
    entry: basicFlowEntry,
    messages: [NAME],
  },
  {
    mutant: toolMutant("WeatherStep", "get_weather", { kind: "advance-to-stay" }),
    entry: basicFlowEntry,
    messages: [NAME, CITIES],
  },
  {
    mutant: toolMutant("NameStep", "save_name", { kind: "stay-to-advance", to: "WeatherStep" }),
    entry: basicFlowEntry,
    messages: ["John Doe"],
  },
  {
    mutant: toolMutant("NameStep", "save_name", { kind: "advance-elsewhere", to: "AddressStep" }),
    entry: basicFlowEntry,
    messages: [NAME],
  },
  {
    mutant: toolMutant("AddressStep", "check_address", { kind: "withhold-complete" }),
    entry: basicFlowEntry,
    messages: [NAME, CITIES, ADDRESS],
  },
  {
    mutant: {
      id: "BasicFlow/NameStep: drop handoff",
      flow: "BasicFlow",
      step: "NameStep",
      change: { kind: "drop-handoff" },
    },
    entry: basicFlowEntry,
    messages: [NAME],
  },
  { mutant: addressChild({ kind: "skip-child" }), entry: basicFlowEntry, messages: [NAME, CITIES, ADDRESS] },
  {
    mutant: {
      id: "AddressCheck/NormalizeAddressStep/normalize_address: drop state.address",
      flow: "AddressCheck",
      step: "NormalizeAddressStep",
      tool: "normalize_address",
      change: { kind: "drop-write", key: "address" },
    },
    entry: basicFlowEntry,
    messages: [NAME, CITIES, ADDRESS],
  },
  {
    mutant: {
      id: "CodeFlow/AskStep: drop output of child CodeChild",
      flow: "CodeFlow",
      step: "AskStep",
      child: "CodeChild",
      change: { kind: "drop-child-output" },
    },
    entry: codeFlowEntry,
    messages: ["Go."],
  },
  {
    mutant: {
      id: "LedgerFlow: alter text/csv rendering",
      flow: "LedgerFlow",
      change: { kind: "alter-render", mediaType: "text/csv" },
    },
    entry: ledgerEntry!,
    messages: ["bolts"],
  },
];

describe("mutatedFlow leaves the original definition as it was: the unmutated flow plays on in the same process", () => {
  for (const { mutant, entry, messages } of EACH_KIND) {
    test(`${mutant.change.kind} (${mutant.id})`, async (t) => {
      const parts = definitionParts(entry.flow);
      const flow = entry.flow.name;
      const before = await played(await engineWith(t, undefined, [entry]), messages, flow);
      const [mutatedEngine, plainEngine] = [
        await engineWith(t, mutant, [entry]),
        await engineWith(t, undefined, [entry]),
      ];
      const [mutated, plain] = await Promise.all([
        played(mutatedEngine, messages, flow),
        played(plainEngine, messages, flow),
      ]);
      assert.notDeepEqual(mutated, before, "the mutant changed what the flow did");
      assert.deepEqual(plain, before, "the original flow, played beside it, did as it did before");
      assert.deepEqual(definitionParts(entry.flow), parts, "the original definition holds the same parts");
      assert.notEqual(mutatedFlow(entry.flow, mutant), entry.flow, "the mutant is a definition of its own");
    });
  }
});
