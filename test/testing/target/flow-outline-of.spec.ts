import assert from "node:assert/strict";
import { test } from "node:test";
import { flowOutlineOf, listedFlowOutline } from "../../../src/testing/target/flow-outline-of.ts";
import type { TargetEntry } from "../../../src/testing/target/target-config.ts";

// Nothing listens on port 9: an outline built from the entry alone sends no request.
const GRAPHS: TargetEntry = {
  kind: "langgraph",
  baseUrl: "http://127.0.0.1:9",
  graphs: { intake: { steps: ["name_step", "age_step"] } },
};
const SHOP: TargetEntry = {
  kind: "http",
  baseUrl: "http://127.0.0.1:9",
  turn: { path: "/chat", body: {} },
  answer: {},
  flows: { ReturnFlow: { steps: ["OrderStep"] } },
};

test("a langgraph target's outline that lists its graph's steps asks no server, and is the same for scenarios played with no spec and for a flow spec", async () => {
  const played = await flowOutlineOf("graphs", GRAPHS, "intake");
  assert.deepEqual(played, listedFlowOutline("graphs", GRAPHS, "intake"));
  assert.deepEqual(played, {
    name: "intake",
    stepNames: ["name_step", "age_step"],
    servedBy: "graph intake of target graphs (http://127.0.0.1:9)",
    kind: "langgraph",
  });
});

test("an http target's outline lists its flow's steps and its kind", async () => {
  const outline = await flowOutlineOf("shop", SHOP, "ReturnFlow");
  assert.deepEqual(outline, {
    name: "ReturnFlow",
    stepNames: ["OrderStep"],
    servedBy: "ReturnFlow of target shop (http://127.0.0.1:9)",
    kind: "http",
  });
});

test("an ai-sdk target's outline lists its flow's steps and its kind", async () => {
  const chat: TargetEntry = {
    kind: "ai-sdk",
    baseUrl: "http://127.0.0.1:9",
    flows: { booking: { steps: ["search"] } },
  };
  assert.deepEqual(await flowOutlineOf("chat", chat, "booking"), {
    name: "booking",
    stepNames: ["search"],
    servedBy: "booking of target chat (http://127.0.0.1:9)",
    kind: "ai-sdk",
  });
});
