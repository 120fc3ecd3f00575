import assert from "node:assert/strict";
import { test } from "node:test";
import type { CalledTool } from "../../../src/testing/checks/called-tool.ts";
import { shownCall, toolCallsCheck } from "../../../src/testing/checks/tool-calls-check.ts";

const lookup: CalledTool = {
  name: "lookup_order",
  args: { orderId: "A-17" },
  output: { status: "shipped", eta: "2027-07-18" },
  status: "returned",
  id: "call_1",
};
const refund: CalledTool = {
  name: "refund",
  args: { orderId: "A-17", amount: 20 },
  output: { error: "refunds above 10 need a manager" },
  status: "failed",
};
const pending: CalledTool = { name: "notify", args: { channel: "email" }, status: "pending" };

test("expectToolCalls passes when a call's output matches partially, JSON values included", () => {
  const check = toolCallsCheck(1, [{ name: "lookup_order", output: { status: "shipped" } }], [lookup]);
  assert.equal(check.outcome, "passed");
});

test("expectToolCalls fails a call whose output differs, naming the call, the path that differs and every call's output", () => {
  const check = toolCallsCheck(2, [{ name: "lookup_order", output: { status: "delivered" } }], [lookup, refund]);
  assert.equal(check.outcome, "failed");
  assert.equal(
    check.message,
    'turn 2: expectToolCalls[0] {"name":"lookup_order","output":{"status":"delivered"}} was not called: ' +
      'lookup_order (call 1 of the turn) differs: output.status: expected "delivered", found "shipped"; ' +
      'the turn called lookup_order({"orderId":"A-17"}) → {"status":"shipped","eta":"2027-07-18"}, ' +
      'refund({"orderId":"A-17","amount":20}) → {"error":"refunds above 10 need a manager"}',
  );
});

test("expectToolCalls matches a failed call by its output's error", () => {
  const expected = [{ name: "refund", output: { error: "refunds above 10 need a manager" } }];
  assert.equal(toolCallsCheck(1, expected, [lookup, refund]).outcome, "passed");
  const wrong = toolCallsCheck(1, [{ name: "refund", output: { amount: 20 } }], [refund]);
  assert.match(wrong.message!, /refund \(call 1 of the turn\) differs: output\.amount: missing; output has error;/);
});

test("a pending call matches on its name and args, never on an output, and is shown as having no output in the answer", () => {
  assert.equal(toolCallsCheck(1, [{ name: "notify", args: { channel: "email" } }], [pending]).outcome, "passed");
  const check = toolCallsCheck(1, [{ name: "notify", output: "sent" }], [pending]);
  assert.equal(check.outcome, "failed");
  assert.equal(
    check.message,
    'turn 1: expectToolCalls[0] {"name":"notify","output":"sent"} was not called: ' +
      'notify (call 1 of the turn) differs: output: expected "sent", but the answer shows no output of the call; ' +
      'the turn called notify({"channel":"email"}) → no output in the answer',
  );
  assert.deepEqual(check.actual, [pending]);
});

test("a wrong argument names the call and the argument that differs", () => {
  const check = toolCallsCheck(3, [{ name: "lookup_order", args: { orderId: "B-2" } }], [lookup]);
  assert.match(
    check.message!,
    /^turn 3: expectToolCalls\[0\] .* was not called: lookup_order \(call 1 of the turn\) differs: args\.orderId: expected "B-2", found "A-17"; the turn called lookup_order/,
  );
});

test("a tool the turn did not call is named, with the calls it made, or that it made none", () => {
  assert.equal(
    toolCallsCheck(1, [{ name: "cancel_order" }], [lookup]).message,
    'turn 1: expectToolCalls[0] {"name":"cancel_order"} was not called: the turn did not call cancel_order; ' +
      'the turn called lookup_order({"orderId":"A-17"}) → {"status":"shipped","eta":"2027-07-18"}',
  );
  assert.equal(
    toolCallsCheck(1, [{ name: "cancel_order" }], []).message,
    'turn 1: expectToolCalls[0] {"name":"cancel_order"} was not called: the turn did not call cancel_order; the turn called no tool',
  );
});

test("a call expected after another is looked for after that one's match", () => {
  const check = toolCallsCheck(1, [{ name: "refund" }, { name: "lookup_order" }], [lookup, refund]);
  assert.match(
    check.message!,
    /expectToolCalls\[1\] .* was not called after expectToolCalls\[0\]: the turn did not call lookup_order after that;/,
  );
});

test("our engine's calls show their outcome beside what the tool returned", () => {
  const engine: CalledTool = {
    name: "save_name",
    args: { name: "Ada" },
    output: "Saved.",
    status: "returned",
    result: "advance",
  };
  assert.equal(shownCall(engine), 'save_name({"name":"Ada"}) → advance "Saved."');
  assert.equal(shownCall({ ...engine, output: undefined }), 'save_name({"name":"Ada"}) → advance');
  const wrong = toolCallsCheck(1, [{ name: "save_name", result: "stay" }], [engine]);
  assert.match(wrong.message!, /save_name \(call 1 of the turn\) differs: result: expected stay, found advance;/);
});
