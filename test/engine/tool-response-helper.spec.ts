import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { advance, complete, Step, stay } from "../../src/engine/index.ts";

class TargetStep extends Step {
  systemPrompt() {
    return "Target.";
  }
}

describe("tool results", () => {
  test("stay keeps the cursor and carries the message back to the model", () => {
    assert.deepStrictEqual(stay("Saved. Ask for the next city."), {
      kind: "stay",
      message: "Saved. Ask for the next city.",
    });
  });

  test("advance with a step class moves to the class's name with the default message", () => {
    assert.deepStrictEqual(advance(TargetStep), {
      kind: "advance",
      to: "TargetStep",
      message: "Done. Continue with the next step.",
    });
  });

  test("advance with a step class and a message keeps the message", () => {
    assert.deepStrictEqual(advance(TargetStep, "Saved the name Ada."), {
      kind: "advance",
      to: "TargetStep",
      message: "Saved the name Ada.",
    });
  });

  test("advance with a step name moves to that name as given", () => {
    assert.deepStrictEqual(advance("WeatherStep"), {
      kind: "advance",
      to: "WeatherStep",
      message: "Done. Continue with the next step.",
    });
    assert.deepStrictEqual(advance("WeatherStep", "On to the weather."), {
      kind: "advance",
      to: "WeatherStep",
      message: "On to the weather.",
    });
  });

  test("advance keeps an empty message instead of replacing it with the default", () => {
    assert.deepStrictEqual(advance(TargetStep, ""), { kind: "advance", to: "TargetStep", message: "" });
  });

  test("complete ends the run with the default closing message", () => {
    assert.deepStrictEqual(complete(), { kind: "complete", message: "The flow is complete. Close the conversation." });
  });

  test("complete with a message keeps the message", () => {
    assert.deepStrictEqual(complete("Saved the address. Thank the user."), {
      kind: "complete",
      message: "Saved the address. Thank the user.",
    });
  });

  test("complete with an output carries it, for the parent that runs the flow as a child", () => {
    assert.deepStrictEqual(complete("Quoted.", { totalCents: 12900 }), {
      kind: "complete",
      message: "Quoted.",
      output: { totalCents: 12900 },
    });
  });

  test("each call builds a new result object", () => {
    const first = stay("same");
    const second = stay("same");
    assert.notEqual(first, second);
    first.message = "changed";
    assert.equal(second.message, "same");
  });
});
