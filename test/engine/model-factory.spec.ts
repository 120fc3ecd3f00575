import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatModel, ModelContext } from "../../src/engine/chat-model.ts";
import { scriptedText } from "../../src/engine/index.ts";
import { wrapModels, type ModelFactory, type ModelWrapper } from "../../src/engine/model-factory.ts";

const context: ModelContext = { flow: "Alpha", rootFlow: "Parent", step: "NameStep" };
const request = { system: "You are a test step.", messages: [{ role: "user" as const, content: "hello" }], tools: [] };

const answering = (content: string): ChatModel => ({ invoke: async () => scriptedText(content) });

test("wrapModels asks the wrapper first, last wrapped outermost, and each wrapper's make() gives the model of the layers under it for the same context", async () => {
  const order: string[] = [];
  const contexts: ModelContext[] = [];
  const base: ModelFactory = (asked) => {
    contexts.push(asked);
    order.push("base");
    return answering("base");
  };
  const layer =
    (name: string): ModelWrapper =>
    (asked, make) => {
      contexts.push(asked);
      order.push(name);
      const inner = make();
      return { invoke: async (sent) => scriptedText(`${name}(${(await inner.invoke(sent)).content})`) };
    };
  const models = wrapModels(wrapModels(base, layer("inner")), layer("outer"));
  assert.equal((await models(context).invoke(request)).content, "outer(inner(base))");
  assert.deepEqual(order, ["outer", "inner", "base"]);
  assert.ok(contexts.every((asked) => asked === context));
});

test("a wrapper that answers itself never makes the model under it", async () => {
  let made = 0;
  const models = wrapModels(
    () => {
      made++;
      return answering("live");
    },
    () => answering("taped"),
  );
  assert.equal((await models(context).invoke(request)).content, "taped");
  assert.equal(made, 0);
});
