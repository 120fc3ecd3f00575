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

test("a langgraph target's outline, read by the scenarios played with no spec and by a flow spec alike, refuses the content-type keys", async () => {
  const played = await flowOutlineOf("graphs", GRAPHS, "intake");
  assert.deepEqual(played, listedFlowOutline("graphs", GRAPHS, "intake"));
  assert.deepEqual(played.stepNames, ["name_step", "age_step"]);
  assert.equal(played.servedBy, "graph intake of target graphs (http://127.0.0.1:9)");
  assert.deepEqual(Object.keys(played.refusedTurnKeys ?? {}), ["accept", "expectContentType", "expectCsvRows"]);
});

test("an http target's outline lists its flow's steps and refuses no turn key: its answers carry a content type", async () => {
  const outline = await flowOutlineOf("shop", SHOP, "ReturnFlow");
  assert.deepEqual(outline, {
    name: "ReturnFlow",
    stepNames: ["OrderStep"],
    servedBy: "ReturnFlow of target shop (http://127.0.0.1:9)",
  });
});
