import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import { defineFlow, Step, type FlowDefinition } from "../../src/engine/index.ts";
import type { FlowEngine } from "../../src/engine/flow-engine.ts";
import type { SessionDocument } from "../../src/engine/session-document.ts";
import { FlowcheckError } from "../../src/errors.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { defineGreetingFlow, GreetingFlow, type Greeter } from "../fixtures/flows/typed/greeting-flow.ts";
import { greetingFlowScripts } from "../fixtures/flows/typed/greeting-flow-scripts.ts";
import { tempDir } from "../support/temp-path.ts";

// GreetingFlow (test/fixtures/flows/typed/) is written against the typed API: its steps name each
// other by string, read each other's state by name, get a greeter service from the flow, and run a
// typed child with an input and an output. These are the run-time halves of those types.

/** An engine serving `flow` on its own SQLite file, closed and removed after the test. */
async function engineFor(t: TestContext, flow: FlowDefinition = GreetingFlow): Promise<FlowEngine> {
  const dir = await tempDir("typed-flow");
  const store = new SqliteSessionStore(join(dir.path, "sessions.sqlite"));
  const app = await createApp({
    flows: [{ flow, scripts: greetingFlowScripts }],
    config: loadConfig({}),
    store,
    log: () => undefined,
  });
  t.after(async () => {
    await app.close();
    dir.remove();
  });
  return app.engine;
}

async function stored(engine: FlowEngine, id: string): Promise<SessionDocument> {
  const document = await engine.fetchAll(id);
  assert.ok(document, `session ${id} should be stored`);
  return document;
}

describe("a typed flow at run time", () => {
  test("advance by a step's name moves the cursor to that step", async (t) => {
    const engine = await engineFor(t);
    const outcome = await engine.chat({ flow: "GreetingFlow", message: "Ada Lovelace" });
    assert.equal(outcome.currentStep, "GreetStep");
    assert.deepEqual((await stored(engine, outcome.session)).steps["AskNameStep"], { name: "Ada Lovelace" });
  });

  test("the services a flow is defined with reach its steps as context.services", async (t) => {
    const greeted: string[] = [];
    const greeter: Greeter = {
      greet: (name, style) => {
        greeted.push(`${name}/${style}`);
        return `Welcome aboard, ${name}.`;
      },
    };
    const engine = await engineFor(t, defineGreetingFlow(greeter));
    const started = await engine.chat({ flow: "GreetingFlow", message: "Ada Lovelace" });
    const outcome = await engine.chat({ session: started.session, message: "!greet brief" });
    assert.equal(outcome.runStatus, "completed");
    assert.deepEqual(greeted, ["Ada Lovelace/brief"]);
    assert.equal(
      (await stored(engine, started.session)).steps["GreetStep"]?.["greeting"],
      "Welcome aboard, Ada Lovelace.",
    );
  });

  test("runChild with { message, input } gives the child its input and the parent the output of the child's complete", async (t) => {
    const engine = await engineFor(t);
    const started = await engine.chat({ flow: "GreetingFlow", message: "Ada Lovelace" });
    const outcome = await engine.chat({ session: started.session, message: "!greet warm" });
    assert.match(outcome.response, /^Hello, dear Ada Lovelace! Your name has 11 letters\.$/);
    const document = await stored(engine, started.session);
    assert.equal(document.steps["GreetStep"]?.["letters"], 11);
    const child = document.children[0];
    assert.deepEqual(
      [child?.flow, child?.runStatus, child?.steps["CountLettersStep"]],
      ["LetterCount", "completed", { counted: 11 }],
    );
    // The child's model got the message; the name reached its step as input, not through the model.
    assert.deepEqual(child?.memory["CountLettersStep"]?.[0], {
      role: "user",
      content: "Count the letters of the name.",
    });
  });

  test("stateOf hands out a frozen copy: a tool that writes to it fails the turn and the other step's state is unchanged", async (t) => {
    const engine = await engineFor(t);
    const started = await engine.chat({ flow: "GreetingFlow", message: "Ada Lovelace" });
    const before = await stored(engine, started.session);
    await assert.rejects(engine.chat({ session: started.session, message: "!meddle" }), (error: unknown) => {
      assert.ok(error instanceof FlowcheckError);
      assert.equal(error.code, "internal_error");
      assert.match(error.message, /Tool "meddle" of GreetingFlow\/GreetStep threw: .*read only/);
      return true;
    });
    const after = await stored(engine, started.session);
    assert.deepEqual(after, before);
    assert.deepEqual(after.steps["AskNameStep"], { name: "Ada Lovelace" });
  });
});

describe("defineFlow's steps object", () => {
  class FirstStep extends Step {
    systemPrompt(): string {
      return "First.";
    }
  }
  class SecondStep extends Step {
    systemPrompt(): string {
      return "Second.";
    }
  }

  test("the steps are keyed by their class names and kept in the object's order", () => {
    const flow = defineFlow({ name: "OrderFlow", description: "Two steps.", steps: { SecondStep, FirstStep } });
    assert.deepEqual(flow.stepNames, ["SecondStep", "FirstStep"]);
    assert.equal(flow.firstStep, "SecondStep");
    assert.deepEqual(flow.steps, [SecondStep, FirstStep]);
  });

  test("a key that is not its class's name is refused with flow_invalid, naming both", () => {
    assert.throws(
      () => defineFlow({ name: "KeyFlow", description: "A misnamed key.", steps: { FirstStep, Second: SecondStep } }),
      (error: unknown) => {
        assert.ok(error instanceof FlowcheckError);
        assert.equal(error.code, "flow_invalid");
        assert.match(
          error.message,
          /flow "KeyFlow": steps\.Second is the class SecondStep; a step is keyed by its class's name, e\.g\. \{ SecondStep \}\./,
        );
        return true;
      },
    );
  });
});
