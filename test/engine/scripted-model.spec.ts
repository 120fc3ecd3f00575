import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { scriptedText, scriptedToolCalls, type ScriptRequest } from "../../src/engine/index.ts";
import type { ChatModel, ModelContext, ModelRequest } from "../../src/engine/chat-model.ts";
import { liveModel } from "../../src/engine/live-model.ts";
import { wrapModels, type ModelFactory } from "../../src/engine/model-factory.ts";
import { OpenAIChatModel } from "../../src/engine/openai-chat-model.ts";
import { preview, scriptedModel } from "../../src/engine/scripted-model.ts";
import { FlowcheckError } from "../../src/errors.ts";

// Nothing listens on port 9: a live call that is made fails, and none is expected to succeed.
const settings = {
  apiKey: "test-key",
  baseURL: "http://127.0.0.1:9/v1",
  model: "test-model",
  maxRetries: 0,
  timeoutMs: 1000,
};

const context = (flow: string, step = "OnlyStep"): ModelContext => ({ flow, rootFlow: flow, step });

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "You are a test step.",
  messages: [{ role: "user", content: "hello" }],
  tools: [],
  ...overrides,
});

/** The layers under a scripted one, recognisable by their answer; counts how often they were asked. */
function below(label: string): ModelFactory & { asked: number } {
  const factory = Object.assign(
    (ctx: ModelContext): ChatModel => {
      factory.asked++;
      return { invoke: async () => scriptedText(`${label} answered for ${ctx.flow}`) };
    },
    { asked: 0 },
  );
  return factory;
}

/** `under` with the scripted layer of `scripts` over it, as an app composes them. */
const scriptedOver = (under: ModelFactory, scripts: Parameters<typeof scriptedModel>[0]) =>
  wrapModels(under, scriptedModel(scripts));

describe("scriptedModel", () => {
  test("the named flows get the scripted model, which answers from the script with the request it was given", async () => {
    const received: ScriptRequest[] = [];
    const models = scriptedOver(below("live"), {
      Alpha: (scriptRequest) => {
        received.push(scriptRequest);
        return scriptedToolCalls([{ name: "save_name", args: { name: "Ada" } }]);
      },
    });
    const reply = await models(context("Alpha", "NameStep")).invoke(request());
    assert.deepStrictEqual(reply, {
      content: "",
      toolCalls: [{ id: "call_1_save_name", name: "save_name", arguments: '{"name":"Ada"}' }],
    });
    assert.equal(received.length, 1);
    assert.deepStrictEqual(received[0]!.context, { flow: "Alpha", rootFlow: "Alpha", step: "NameStep" });
    assert.deepStrictEqual(received[0]!.latest, { role: "user", content: "hello" });
    assert.equal(received[0]!.system, "You are a test step.");
  });

  test("flows not named get the model of the layers under it", async () => {
    const models = scriptedOver(below("previous"), { Alpha: () => scriptedText("scripted Alpha") });
    assert.deepStrictEqual(await models(context("Alpha")).invoke(request()), scriptedText("scripted Alpha"));
    assert.deepStrictEqual(await models(context("Beta")).invoke(request()), scriptedText("previous answered for Beta"));
  });

  test("a scripted flow's model never asks the layers under it, so a scripted app builds no live client", async () => {
    const under = below("live");
    const models = scriptedOver(under, { Alpha: () => scriptedText("scripted") });
    await models(context("Alpha")).invoke(request());
    assert.equal(under.asked, 0);
    await models(context("Beta")).invoke(request());
    assert.equal(under.asked, 1);
  });

  test("over the live model, flows without a script get the OpenAI chat model", () => {
    const models = scriptedOver(liveModel(settings), { Alpha: () => scriptedText("scripted") });
    // Building the client makes no request; only invoke would.
    assert.ok(models(context("Beta")) instanceof OpenAIChatModel);
    assert.ok(!(models(context("Alpha")) instanceof OpenAIChatModel));
  });

  test("stacked scripted layers each answer for their own flows and fall through to the one below", async () => {
    const lower = scriptedOver(below("bottom"), {
      Alpha: () => scriptedText("lower Alpha"),
      Beta: () => scriptedText("lower Beta"),
    });
    const models = scriptedOver(lower, { Beta: () => scriptedText("upper Beta") });
    const answer = async (flow: string) => (await models(context(flow)).invoke(request())).content;
    assert.equal(await answer("Alpha"), "lower Alpha");
    assert.equal(await answer("Beta"), "upper Beta");
    assert.equal(await answer("Gamma"), "bottom answered for Gamma");
  });

  test("scripts composed into one app's models leave another app's models alone", async () => {
    const mine = scriptedOver(liveModel(settings), { Alpha: () => scriptedText("mine") });
    const theirs = liveModel(settings);
    assert.equal((await mine(context("Alpha")).invoke(request())).content, "mine");
    await assert.rejects(theirs(context("Alpha")).invoke(request()), "theirs is the (unreachable) live model");
  });

  test("an unmatched request throws script_unmatched quoting a preview of the system prompt and the latest message", async () => {
    const longPrompt = `You collect the user's name.\n\n   ${"Be polite and brief. ".repeat(12)}`;
    const longMessage = `My name is ${"very ".repeat(40)}long`;
    const chat = scriptedOver(below("live"), { Alpha: () => undefined })(context("Alpha", "NameStep"));
    let caught: unknown;
    await assert.rejects(
      chat.invoke(request({ system: longPrompt, messages: [{ role: "user", content: longMessage }] })),
      (error: unknown) => {
        caught = error;
        return true;
      },
    );
    assert.ok(caught instanceof FlowcheckError);
    assert.equal(caught.code, "script_unmatched");
    assert.equal(caught.status, 502);
    const promptPreview = preview(longPrompt);
    assert.ok(promptPreview.endsWith("…") && promptPreview.length === 121, promptPreview);
    assert.ok(!promptPreview.includes("\n"));
    assert.ok(caught.message.includes(`System prompt: "${promptPreview}"`), caught.message);
    assert.ok(caught.message.includes(`Latest message: user "${preview(longMessage)}"`), caught.message);
    assert.match(caught.message, /The scripted model of Alpha has no answer for step NameStep\./);
  });

  test("an unmatched request quotes a hand-off with the step it came from, a tool result as such, and no message as none", async () => {
    const chat = scriptedOver(below("live"), { Alpha: () => undefined })(context("Alpha", "WeatherStep"));
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
