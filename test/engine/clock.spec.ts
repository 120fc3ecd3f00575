import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import {
  complete,
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  stay,
  Step,
  tool,
  type Script,
  type StepContext,
} from "../../src/engine/index.ts";
import { createClock } from "../../src/engine/clock.ts";
import { FlowcheckError } from "../../src/errors.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../support/temp-path.ts";

const PIN = "2027-07-15T00:00:00.000Z";

describe("createClock", () => {
  test("a pinned clock returns the pinned instant every time", () => {
    const clock = createClock(PIN, "HOTEL_FLOW_CURRENT_DATE");
    assert.equal(clock.pinnedTo, PIN);
    assert.equal(clock.now().toISOString(), PIN);
    assert.equal(clock.now().toISOString(), PIN);
    assert.equal(clock.now().valueOf(), Date.parse(PIN));
    assert.ok(clock.now().isUTC());
  });

  test("a pinned clock returns a clone: changing the returned moment does not change the next one", () => {
    const clock = createClock(PIN, "HOTEL_FLOW_CURRENT_DATE");
    const first = clock.now();
    first.add(3, "days").hour(12);
    assert.equal(first.toISOString(), "2027-07-18T12:00:00.000Z");
    assert.notEqual(clock.now(), first);
    assert.equal(clock.now().toISOString(), PIN);
  });

  test("a pin with an offset is the same instant, shown in UTC", () => {
    const clock = createClock("2027-07-15T02:00:00+02:00", "HOTEL_FLOW_CURRENT_DATE");
    assert.equal(clock.now().toISOString(), PIN);
  });

  test("an invalid pin fails with config_invalid naming the variable and the value", () => {
    for (const pin of ["tomorrow", "2027-13-45", "15/07/2027"]) {
      assert.throws(
        () => createClock(pin, "HOTEL_FLOW_CURRENT_DATE"),
        (error: unknown) => {
          assert.ok(error instanceof FlowcheckError);
          assert.equal(error.code, "config_invalid");
          assert.ok(error.message.includes(`HOTEL_FLOW_CURRENT_DATE="${pin}"`), error.message);
          assert.match(error.message, /ISO 8601/);
          return true;
        },
      );
    }
  });

  test("without a pin the clock returns the real time", () => {
    for (const pin of [undefined, ""]) {
      const clock = createClock(pin, "HOTEL_FLOW_CURRENT_DATE");
      assert.equal(clock.pinnedTo, undefined);
      const earliest = Date.now();
      const now = clock.now().valueOf();
      const latest = Date.now();
      assert.ok(earliest <= now && now <= latest, `${now} should lie between ${earliest} and ${latest}`);
    }
  });
});

interface ClockState {
  seenAt?: string;
}

class DateStep extends Step<ClockState> {
  systemPrompt(context: StepContext<ClockState>): string {
    return `Today is ${context.now().format("YYYY-MM-DD")}.`;
  }

  @tool({ name: "stamp", description: "Save the current instant.", parameters: { type: "object" } })
  stamp(_args: unknown, context: StepContext<ClockState>) {
    context.state.seenAt = context.now().toISOString();
    return stay(`Stamped ${context.state.seenAt}.`);
  }
}

const DatedFlow = defineFlow({ name: "DatedFlow", description: "Reads its clock.", steps: [DateStep] });

const datedScript: Script = ({ system, latest }) => {
  if (latest?.role === "user") return scriptedToolCalls([{ name: "stamp", args: {} }]);
  if (latest?.role === "tool") return scriptedText(`${system} ${latest.content}`);
  return undefined;
};

describe("the flow clock through createApp", () => {
  test("a <FLOW>_CURRENT_DATE pin reaches the step's context.now() in its prompt and its tools", async () => {
    const dir = await tempDir("clock");
    const app = await createApp({
      flows: [{ flow: DatedFlow, scripts: { DatedFlow: datedScript } }],
      config: loadConfig({ DATED_FLOW_CURRENT_DATE: PIN }),
      store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
      log: () => {},
    });
    try {
      const outcome = await app.engine.chat({ flow: "DatedFlow", message: "what day is it?" });
      assert.equal(outcome.response, `Today is 2027-07-15. Stamped ${PIN}.`);
      const document = await app.engine.fetchAll(outcome.session);
      assert.deepStrictEqual(document?.steps["DateStep"], { seenAt: PIN });
    } finally {
      await app.close();
      dir.remove();
    }
  });

  test("another flow's pin does not reach this flow, which keeps the real time", async () => {
    const dir = await tempDir("clock");
    const app = await createApp({
      flows: [{ flow: DatedFlow, scripts: { DatedFlow: datedScript } }],
      config: loadConfig({ OTHER_FLOW_CURRENT_DATE: PIN }),
      store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
      log: () => {},
    });
    try {
      const earliest = Date.now();
      const outcome = await app.engine.chat({ flow: "DatedFlow", message: "what day is it?" });
      const latest = Date.now();
      const document = await app.engine.fetchAll(outcome.session);
      const seenAt = Date.parse(String(document?.steps["DateStep"]?.["seenAt"]));
      assert.ok(earliest <= seenAt && seenAt <= latest, `${seenAt} should lie between ${earliest} and ${latest}`);
    } finally {
      await app.close();
      dir.remove();
    }
  });

  test("createApp refuses an invalid pin with config_invalid naming the variable", async () => {
    const store = new SqliteSessionStore(":memory:");
    try {
      await assert.rejects(
        createApp({
          flows: [{ flow: DatedFlow, scripts: { DatedFlow: datedScript } }],
          config: loadConfig({ DATED_FLOW_CURRENT_DATE: "next tuesday" }),
          store,
          log: () => {},
        }),
        (error: unknown) => {
          assert.ok(error instanceof FlowcheckError);
          assert.equal(error.code, "config_invalid");
          assert.ok(error.message.includes('DATED_FLOW_CURRENT_DATE="next tuesday"'), error.message);
          return true;
        },
      );
    } finally {
      // createApp failed before it owned the store, so closing it is ours to do.
      await store.close();
    }
  });
});

test("a child flow without a pin of its own reads its parent flow's pin", async () => {
  class TellStep extends Step {
    systemPrompt(context: StepContext) {
      return `Child now ${context.now().toISOString()}`;
    }
    @tool({ name: "done", description: "Done.", parameters: { type: "object", properties: {} } })
    done() {
      return complete("ok");
    }
  }
  const Child = defineFlow({ name: "TellTime", description: "Says the time.", steps: [TellStep] });
  class AskStep extends Step {
    systemPrompt() {
      return "Ask the child.";
    }
    @tool({ name: "ask", description: "Ask.", parameters: { type: "object", properties: {} } })
    async ask(_args: unknown, context: StepContext) {
      const child = await context.runChild(Child, "time?");
      return stay(child.reply);
    }
  }
  const Parent = defineFlow({
    name: "ParentClock",
    description: "Asks its child.",
    steps: [AskStep],
    children: [Child],
  });
  const seen: string[] = [];
  const dir = await tempDir("child-clock");
  const app = await createApp({
    flows: [
      {
        flow: Parent,
        scripts: {
          ParentClock: ({ latest }) =>
            latest?.role === "user"
              ? scriptedToolCalls([{ name: "ask", args: {} }])
              : scriptedText(latest?.content ?? ""),
          TellTime: ({ system, latest }) => {
            seen.push(system);
            return latest?.role === "user" ? scriptedToolCalls([{ name: "done", args: {} }]) : scriptedText("told");
          },
        },
      },
    ],
    config: loadConfig({ PARENT_CLOCK_CURRENT_DATE: "2031-02-03T04:05:06.000Z" }),
    store: new SqliteSessionStore(join(dir.path, "s.sqlite")),
    log: () => undefined,
  });
  try {
    await app.engine.chat({ flow: "ParentClock", message: "go" });
    assert.equal(seen[0], "Child now 2031-02-03T04:05:06.000Z");
  } finally {
    await app.close();
    dir.remove();
  }
});
