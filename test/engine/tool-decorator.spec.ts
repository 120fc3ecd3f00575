import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FlowcheckError } from "../../src/errors.ts";
import { defineFlow, Step, stay, tool, type StepClass } from "../../src/engine/index.ts";
import { toolsOf } from "../../src/engine/tool.ts";

const NAME_PARAMETERS = {
  type: "object",
  properties: { name: { type: "string", minLength: 1 } },
  required: ["name"],
  additionalProperties: false,
} as const;

/** Asserts that `run` throws a `flow_invalid` FlowcheckError whose message matches every pattern. */
function assertFlowInvalid(run: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof FlowcheckError, `expected a FlowcheckError, got ${String(error)}`);
    assert.equal(error.code, "flow_invalid");
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

/** A one-step flow around a step class, for the checks defineFlow makes on tools. */
function flowOf(step: StepClass, name = "ToolCheckFlow") {
  return defineFlow({ name, description: "A flow for a tool check.", steps: [step] });
}

describe("@tool and toolsOf", () => {
  test("@tool records the tool's name, description and parameters with the method it is on", () => {
    class GreetStep extends Step {
      systemPrompt() {
        return "Greet.";
      }
      @tool({ name: "save_name", description: "Save the name.", parameters: NAME_PARAMETERS })
      saveName() {
        return stay("ok");
      }
    }
    assert.deepStrictEqual(toolsOf(GreetStep), [
      { name: "save_name", description: "Save the name.", parameters: NAME_PARAMETERS, method: "saveName" },
    ]);
  });

  test("toolsOf lists a step's tools in declaration order, base-class tools first, and skips undecorated methods", () => {
    const params = { type: "object", properties: {} };
    class BaseStep extends Step {
      systemPrompt() {
        return "Base.";
      }
      @tool({ name: "zeta", description: "Declared first on the base.", parameters: params })
      zeta() {
        return stay("zeta");
      }
      helper() {
        return "not a tool";
      }
      @tool({ name: "alpha", description: "Declared second on the base.", parameters: params })
      alpha() {
        return stay("alpha");
      }
    }
    class DerivedStep extends BaseStep {
      @tool({ name: "omega", description: "Declared first on the subclass.", parameters: params })
      omega() {
        return stay("omega");
      }
      @tool({ name: "beta", description: "Declared second on the subclass.", parameters: params })
      beta() {
        return stay("beta");
      }
    }
    assert.deepStrictEqual(
      toolsOf(DerivedStep).map((t) => [t.name, t.method]),
      [
        ["zeta", "zeta"],
        ["alpha", "alpha"],
        ["omega", "omega"],
        ["beta", "beta"],
      ],
    );
    assert.deepStrictEqual(
      toolsOf(BaseStep).map((t) => t.name),
      ["zeta", "alpha"],
    );
  });

  test("a subclass that overrides a tool method and declares it again replaces the base tool in its place", () => {
    const params = { type: "object", properties: {} };
    class BaseStep extends Step {
      systemPrompt() {
        return "Base.";
      }
      @tool({ name: "save", description: "Base save.", parameters: params })
      save() {
        return stay("base");
      }
      @tool({ name: "other", description: "Base other.", parameters: params })
      other() {
        return stay("other");
      }
    }
    class StricterStep extends BaseStep {
      @tool({ name: "save_strictly", description: "Stricter save.", parameters: params })
      override save() {
        return stay("strict");
      }
    }
    assert.deepStrictEqual(
      toolsOf(StricterStep).map((t) => [t.name, t.description]),
      [
        ["save_strictly", "Stricter save."],
        ["other", "Base other."],
      ],
    );
    assert.doesNotThrow(() => flowOf(StricterStep, "OverrideFlow"));
  });

  test("a subclass that overrides a tool method without @tool removes that tool", () => {
    const params = { type: "object", properties: {} };
    class BaseStep extends Step {
      systemPrompt() {
        return "Base.";
      }
      @tool({ name: "save", description: "Base save.", parameters: params })
      save() {
        return stay("base");
      }
    }
    class PlainStep extends BaseStep {
      override save() {
        return stay("plain");
      }
    }
    assert.deepStrictEqual(toolsOf(PlainStep), []);
  });

  test("two @tool decorators on one method are refused with flow_invalid", () => {
    const params = { type: "object", properties: {} };
    assertFlowInvalid(() => {
      class DoubleStep extends Step {
        systemPrompt() {
          return "Double.";
        }
        @tool({ name: "first", description: "First.", parameters: params })
        @tool({ name: "second", description: "Second.", parameters: params })
        both() {
          return stay("both");
        }
      }
      return DoubleStep;
    }, /second @tool on method both/);
  });

  test("a step without tools has an empty tool list", () => {
    class QuietStep extends Step {
      systemPrompt() {
        return "Say something.";
      }
    }
    assert.deepStrictEqual(toolsOf(QuietStep), []);
    assert.deepStrictEqual(flowOf(QuietStep).tools("QuietStep"), []);
  });

  test("@tool on a static method throws flow_invalid naming the tool as soon as the class is defined", () => {
    assertFlowInvalid(
      () => {
        class StaticToolStep extends Step {
          systemPrompt() {
            return "Static.";
          }
          // @ts-expect-error: the decorator's types allow instance methods only; this checks the runtime refusal.
          @tool({ name: "static_tool", description: "On a static method.", parameters: { type: "object" } })
          static staticTool() {
            return stay("never");
          }
        }
        return StaticToolStep;
      },
      /@tool\("static_tool"\)/,
      /static/,
    );
  });

  test("@tool on a #private method throws flow_invalid", () => {
    assertFlowInvalid(
      () => {
        class PrivateToolStep extends Step {
          systemPrompt() {
            return "Private.";
          }
          @tool({ name: "private_tool", description: "On a private method.", parameters: { type: "object" } })
          #privateTool() {
            return stay("never");
          }
          use() {
            return this.#privateTool();
          }
        }
        return PrivateToolStep;
      },
      /@tool\("private_tool"\)/,
      /#private/,
    );
  });
});

describe("defineFlow", () => {
  test("a valid flow compiles each step's tools with a validator that enforces the schema", () => {
    class AskStep extends Step {
      systemPrompt() {
        return "Ask.";
      }
      @tool({ name: "save_name", description: "Save the name.", parameters: NAME_PARAMETERS })
      saveName() {
        return stay("ok");
      }
    }
    const flow = defineFlow({ name: "GoodFlow", description: "Good.", steps: [AskStep] });
    assert.equal(flow.name, "GoodFlow");
    assert.equal(flow.firstStep, "AskStep");
    assert.deepStrictEqual(flow.stepNames, ["AskStep"]);
    assert.equal(flow.envPrefix, "GOOD_FLOW");
    assert.equal(flow.maxModelCalls, 8);
    assert.ok(Object.isFrozen(flow));
    const [compiled] = flow.tools("AskStep");
    assert.ok(compiled);
    assert.equal(compiled.name, "save_name");
    assert.equal(compiled.method, "saveName");
    assert.equal(compiled.validate({ name: "Ada" }), true);
    assert.equal(compiled.validate({ name: "" }), false);
    assert.equal(compiled.validate({ name: "Ada", extra: 1 }), false);
    assert.equal(flow.step("AskStep"), AskStep);
    assert.equal(flow.step("NoSuchStep"), undefined);
  });

  test("defineFlow refuses a tool name that is not 1-64 letters, digits, _ or -, naming flow, step and tool", () => {
    class SpacedStep extends Step {
      systemPrompt() {
        return "Spaced.";
      }
      @tool({ name: "save name", description: "A space in the name.", parameters: { type: "object" } })
      saveName() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(SpacedStep, "SpacedFlow"),
      /flow "SpacedFlow"/,
      /step SpacedStep/,
      /tool "save name"/,
      /1-64 letters/,
    );

    const longName = "x".repeat(65);
    class LongStep extends Step {
      systemPrompt() {
        return "Long.";
      }
      @tool({ name: longName, description: "Too long a name.", parameters: { type: "object" } })
      longTool() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(LongStep, "LongFlow"),
      /flow "LongFlow"/,
      /step LongStep/,
      new RegExp(`tool "${longName}"`),
    );

    class EmptyNameStep extends Step {
      systemPrompt() {
        return "Empty.";
      }
      @tool({ name: "", description: "No name.", parameters: { type: "object" } })
      nameless() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(EmptyNameStep, "EmptyNameFlow"),
      /flow "EmptyNameFlow"/,
      /step EmptyNameStep/,
      /tool ""/,
    );
  });

  test("defineFlow accepts a tool name of exactly 64 characters", () => {
    const name = "a".repeat(64);
    class EdgeStep extends Step {
      systemPrompt() {
        return "Edge.";
      }
      @tool({ name, description: "Longest allowed name.", parameters: { type: "object" } })
      edge() {
        return stay("ok");
      }
    }
    assert.equal(flowOf(EdgeStep).tools("EdgeStep")[0]?.name, name);
  });

  test("defineFlow refuses a tool name declared twice on one step", () => {
    class TwiceStep extends Step {
      systemPrompt() {
        return "Twice.";
      }
      @tool({ name: "save_name", description: "First.", parameters: { type: "object" } })
      first() {
        return stay("first");
      }
      @tool({ name: "save_name", description: "Second.", parameters: { type: "object" } })
      second() {
        return stay("second");
      }
    }
    assertFlowInvalid(
      () => flowOf(TwiceStep, "TwiceFlow"),
      /flow "TwiceFlow"/,
      /step TwiceStep/,
      /tool "save_name"/,
      /declared twice/,
    );
  });

  test("defineFlow allows the same tool name on two different steps", () => {
    class FirstStep extends Step {
      systemPrompt() {
        return "First.";
      }
      @tool({ name: "next", description: "Next.", parameters: { type: "object" } })
      next() {
        return stay("ok");
      }
    }
    class SecondStep extends Step {
      systemPrompt() {
        return "Second.";
      }
      @tool({ name: "next", description: "Next.", parameters: { type: "object" } })
      next() {
        return stay("ok");
      }
    }
    const flow = defineFlow({ name: "SharedNameFlow", description: "Shared.", steps: [FirstStep, SecondStep] });
    assert.deepStrictEqual(
      flow.stepNames.map((step) => flow.tools(step).map((t) => t.name)),
      [["next"], ["next"]],
    );
  });

  test('defineFlow refuses parameters whose type is not "object"', () => {
    class StringParamsStep extends Step {
      systemPrompt() {
        return "String.";
      }
      @tool({ name: "take_text", description: "A string schema.", parameters: { type: "string" } })
      takeText() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(StringParamsStep, "StringParamsFlow"),
      /flow "StringParamsFlow"/,
      /step StringParamsStep/,
      /tool "take_text"/,
      /"type": "object"/,
    );

    class UntypedParamsStep extends Step {
      systemPrompt() {
        return "Untyped.";
      }
      @tool({ name: "take_any", description: "No type at all.", parameters: { properties: {} } })
      takeAny() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(UntypedParamsStep, "UntypedParamsFlow"),
      /flow "UntypedParamsFlow"/,
      /step UntypedParamsStep/,
      /tool "take_any"/,
    );
  });

  test("defineFlow refuses a parameters schema that strict ajv cannot compile, quoting ajv's reason", () => {
    class TypoStep extends Step {
      systemPrompt() {
        return "Typo.";
      }
      @tool({
        name: "save_name",
        description: "A misspelt keyword.",
        parameters: { type: "object", properties: { name: { type: "string", minLenght: 1 } } },
      })
      saveName() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(TypoStep, "TypoFlow"),
      /flow "TypoFlow"/,
      /step TypoStep/,
      /tool "save_name"/,
      /does not compile/,
      /unknown keyword: "minLenght"/,
    );

    class BadTypeStep extends Step {
      systemPrompt() {
        return "Bad type.";
      }
      @tool({
        name: "save_age",
        description: "An unknown type.",
        parameters: { type: "object", properties: { age: { type: "integr" } } },
      })
      saveAge() {
        return stay("ok");
      }
    }
    assertFlowInvalid(
      () => flowOf(BadTypeStep, "BadTypeFlow"),
      /flow "BadTypeFlow"/,
      /step BadTypeStep/,
      /tool "save_age"/,
      /does not compile/,
    );
  });

  test("defineFlow refuses a step listed twice", () => {
    class RepeatedStep extends Step {
      systemPrompt() {
        return "Again.";
      }
    }
    assertFlowInvalid(
      () => defineFlow({ name: "RepeatFlow", description: "Repeats.", steps: [RepeatedStep, RepeatedStep] }),
      /flow "RepeatFlow"/,
      /step "RepeatedStep" is listed twice/,
    );
  });

  test("defineFlow refuses a flow name that is not PascalCase", () => {
    class FineStep extends Step {
      systemPrompt() {
        return "Fine.";
      }
    }
    for (const name of ["basicFlow", "Basic_Flow", "Basic Flow", "", "1Flow"]) {
      assertFlowInvalid(
        () => defineFlow({ name, description: "Badly named.", steps: [FineStep] }),
        new RegExp(`flow "${name}"`),
        /PascalCase/,
      );
    }
  });

  test("defineFlow refuses a step class whose name is not PascalCase", () => {
    class lowerStep extends Step {
      systemPrompt() {
        return "Lower.";
      }
    }
    class Snake_Step extends Step {
      systemPrompt() {
        return "Snake.";
      }
    }
    assertFlowInvalid(
      () => defineFlow({ name: "LowerFlow", description: "Lower step.", steps: [lowerStep] }),
      /flow "LowerFlow"/,
      /step class name "lowerStep" must be PascalCase/,
    );
    assertFlowInvalid(
      () => defineFlow({ name: "SnakeFlow", description: "Snake step.", steps: [Snake_Step] }),
      /flow "SnakeFlow"/,
      /"Snake_Step"/,
    );
  });

  test("defineFlow refuses a flow with no steps", () => {
    assertFlowInvalid(
      () => defineFlow({ name: "EmptyFlow", description: "Nothing.", steps: [] }),
      /flow "EmptyFlow"/,
      /no steps/,
    );
  });

  test("defineFlow refuses a maxModelCalls that is not a positive integer", () => {
    class FineStep extends Step {
      systemPrompt() {
        return "Fine.";
      }
    }
    for (const maxModelCalls of [0, -1, 1.5]) {
      assertFlowInvalid(
        () => defineFlow({ name: "BoundFlow", description: "Bound.", steps: [FineStep], maxModelCalls }),
        /flow "BoundFlow"/,
        /maxModelCalls/,
      );
    }
  });
});
