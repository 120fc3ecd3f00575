import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import {
  Model,
  preview,
  scriptedText,
  scriptedToolCalls,
  useScriptedModel,
  type ChatModel,
  type ModelContext,
  type ModelRequest,
  type ScriptRequest,
} from "../../src/engine/index.ts";
import { OpenAIChatModel } from "../../src/engine/openai-chat-model.ts";
import { FlowcheckError } from "../../src/errors.ts";

const settings = { apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", model: "test-model", maxRetries: 0, timeoutMs: 1000 };

const context = (flow: string, step = "OnlyStep"): ModelContext => ({ flow, rootFlow: flow, step });

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "You are a test step.",
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  ...overrides,
});

/** A stand-in for whatever createInstance was before a patch, recognisable by its answer. */
function markerInstance(label: string): (this: Model, ctx: ModelContext) => ChatModel {
  return function (ctx) {
    return { invoke: async () => scriptedText(`${label} answered for ${ctx.flow}`) };
  };
}

const original = Model.prototype.createInstance;

describe("useScriptedModel", () => {
  beforeEach(() => {
    Model.prototype.createInstance = original;
  });

  afterEach(() => {
    // A failing test must not leave a patch behind for the next one.
    Model.prototype.createInstance = original;
  });

  test("the named flows get the scripted model, which answers from the script with the request it was given", async () => {
    const received: ScriptRequest[] = [];
    const restore = useScriptedModel({
      Alpha: (scriptRequest) => {
        received.push(scriptRequest);
        return scriptedToolCalls([{ name: "save_name", args: { name: "Ada" } }]);
      },
    });
    try {
      const model = new Model(settings);
      const reply = await model.createInstance(context("Alpha", "NameStep")).invoke(request());
      assert.deepStrictEqual(reply, {
        content: "",
        toolCalls: [{ id: "call_1_save_name", name: "save_name", arguments: '{"name":"Ada"}' }],
      });
      assert.equal(received.length, 1);
      assert.deepStrictEqual(received[0]!.context, { flow: "Alpha", rootFlow: "Alpha", step: "NameStep" });
      assert.deepStrictEqual(received[0]!.latest, { role: "user", content: "hello" });
      assert.equal(received[0]!.system, "You are a test step.");
    } finally {
      restore();
    }
  });

  test("flows not named keep the implementation that was installed before", async () => {
    Model.prototype.createInstance = markerInstance("previous");
    const restore = useScriptedModel({ Alpha: () => scriptedText("scripted Alpha") });
    try {
      const model = new Model(settings);
      assert.deepStrictEqual(await model.createInstance(context("Alpha")).invoke(request()), scriptedText("scripted Alpha"));
      assert.deepStrictEqual(await model.createInstance(context("Beta")).invoke(request()), scriptedText("previous answered for Beta"));
    } finally {
      restore();
    }
  });

  test("with no patch left, flows get the OpenAI chat model", () => {
    const restore = useScriptedModel({ Alpha: () => scriptedText("scripted") });
    try {
      // Building the client makes no request; only invoke would.
      assert.ok(new Model(settings).createInstance(context("Beta")) instanceof OpenAIChatModel);
      assert.ok(!(new Model(settings).createInstance(context("Alpha")) instanceof OpenAIChatModel));
    } finally {
      restore();
    }
  });

  test("stacked patches each answer for their own flows and fall through to the one below", async () => {
    Model.prototype.createInstance = markerInstance("bottom");
    const restoreLower = useScriptedModel({ Alpha: () => scriptedText("lower Alpha"), Beta: () => scriptedText("lower Beta") });
    const restoreUpper = useScriptedModel({ Beta: () => scriptedText("upper Beta") });
    try {
      const model = new Model(settings);
      const answer = async (flow: string) => (await model.createInstance(context(flow)).invoke(request())).content;
      assert.equal(await answer("Alpha"), "lower Alpha");
      assert.equal(await answer("Beta"), "upper Beta");
      assert.equal(await answer("Gamma"), "bottom answered for Gamma");
    } finally {
      restoreUpper();
      restoreLower();
    }
  });

  test("restoring puts back exactly the implementation that was there before", () => {
    const previous = markerInstance("previous");
    Model.prototype.createInstance = previous;
    const restore = useScriptedModel({ Alpha: () => scriptedText("scripted") });
    assert.notEqual(Model.prototype.createInstance, previous);
    restore();
    assert.equal(Model.prototype.createInstance, previous);
  });

  test("scripted models can be restored in any order, and the original returns when the last one goes", async () => {
    const restoreFirst = useScriptedModel({ Alpha: () => scriptedText("first") });
    const restoreSecond = useScriptedModel({ Beta: () => scriptedText("second") });
    const model = new Model(settings);
    const answer = async (flow: string) => (await model.createInstance(context(flow)).invoke(request())).content;
    restoreFirst();
    assert.equal(await answer("Beta"), "second");
    await assert.rejects(answer("Alpha"), "Alpha is no longer scripted, so it reaches the (unreachable) live model");
    restoreFirst();
    restoreSecond();
    assert.equal(Model.prototype.createInstance, original);
  });

  test("a scripted model bound to one Model instance leaves every other instance alone", async () => {
    const mine = new Model(settings);
    const theirs = new Model(settings);
    const restore = useScriptedModel({ Alpha: () => scriptedText("mine") }, { model: mine });
    try {
      assert.equal((await mine.createInstance(context("Alpha")).invoke(request())).content, "mine");
      await assert.rejects(theirs.createInstance(context("Alpha")).invoke(request()));
    } finally {
      restore();
    }
  });

  test("an unmatched request throws script_unmatched quoting a preview of the system prompt and the latest message", async () => {
    const longPrompt = `You collect the user's name.\n\n   ${"Be polite and brief. ".repeat(12)}`;
    const longMessage = `My name is ${"very ".repeat(40)}long`;
    const restore = useScriptedModel({ Alpha: () => undefined });
    try {
      const chat = new Model(settings).createInstance(context("Alpha", "NameStep"));
      let caught: unknown;
      await assert.rejects(chat.invoke(request({ system: longPrompt, messages: [{ role: "user", content: longMessage }] })), (error: unknown) => {
        caught = error;
        return true;
      });
      assert.ok(caught instanceof FlowcheckError);
      assert.equal(caught.code, "script_unmatched");
      assert.equal(caught.status, 502);
      const promptPreview = preview(longPrompt);
      assert.ok(promptPreview.endsWith("…") && promptPreview.length === 121, promptPreview);
      assert.ok(!promptPreview.includes("\n"));
      assert.ok(caught.message.includes(`System prompt: "${promptPreview}"`), caught.message);
      assert.ok(caught.message.includes(`Latest message: user "${preview(longMessage)}"`), caught.message);
      assert.match(caught.message, /The scripted model of Alpha has no answer for step NameStep\./);
    } finally {
      restore();
    }
  });

  test("an unmatched request quotes a hand-off with the step it came from, a tool result as such, and no message as none", async () => {
    const restore = useScriptedModel({ Alpha: () => undefined });
    try {
      const chat = new Model(settings).createInstance(context("Alpha", "WeatherStep"));
      const handedOff = [
        { role: "user" as const, content: "John Wick" },
        { role: "handoff" as const, from: "NameStep", content: "Saved the name John Wick." },
      ];
      await assert.rejects(chat.invoke(request({ messages: handedOff })), (error: unknown) => {
        assert.ok(error instanceof FlowcheckError && error.code === "script_unmatched");
        assert.match(error.message, /Latest message: handoff from NameStep "Saved the name John Wick\."\./);
        return true;
      });
      await assert.rejects(chat.invoke(request({ messages: [] })), (error: unknown) => {
        assert.ok(error instanceof FlowcheckError && error.code === "script_unmatched");
        assert.match(error.message, /Latest message: none\./);
        return true;
      });
      const messages = [
        { role: "user" as const, content: "LA" },
        { role: "tool" as const, toolCallId: "call_1", name: "get_weather", content: "LA is 72°F." },
      ];
      await assert.rejects(chat.invoke(request({ messages })), (error: unknown) => {
        assert.ok(error instanceof FlowcheckError && error.code === "script_unmatched");
        assert.match(error.message, /Latest message: tool "LA is 72°F\."/);
        return true;
      });
    } finally {
      restore();
    }
  });
});

describe("scripted replies", () => {
  test("scriptedToolCalls numbers its calls with stable ids and JSON arguments", () => {
    assert.deepStrictEqual(
      scriptedToolCalls([
        { name: "get_weather", args: { cityName: "LA" } },
        { name: "get_weather", args: { cityName: "NYC" } },
      ]),
      {
        content: "",
        toolCalls: [
          { id: "call_1_get_weather", name: "get_weather", arguments: '{"cityName":"LA"}' },
          { id: "call_2_get_weather", name: "get_weather", arguments: '{"cityName":"NYC"}' },
        ],
      },
    );
  });

  test("preview flattens whitespace and cuts long text with an ellipsis", () => {
    assert.equal(preview("  a\n\tb   c "), "a b c");
    assert.equal(preview("x".repeat(120)), "x".repeat(120));
    assert.equal(preview("x".repeat(121)), `${"x".repeat(120)}…`);
    assert.equal(preview("abcdef", 3), "abc…");
  });
});
