import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { createApp } from "../../../src/create-app.ts";
import { scriptedText, scriptedToolCalls, type Script } from "../../../src/engine/index.ts";
import type { ExecutionEntry, SessionDocument } from "../../../src/engine/session-document.ts";
import { HomeInsuranceFlow } from "../../../src/flows/home-insurance/home-insurance-flow.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../../support/temp-path.ts";

// The models here do exactly what the test says: "!save_year_built {"year":2028}" calls that tool with
// those arguments, in the flow and in its ClaimsHistory child alike. A tool result is echoed back.
const commanded: Script = ({ latest, context }) => {
  if (latest?.role === "tool") return scriptedText(`heard: ${latest.content}`);
  // A step just entered: its hand-off is not a command.
  if (latest?.role !== "user") return scriptedText(`${context.step} is listening.`);
  const command = /^!(\w+) (.*)$/s.exec(latest.content);
  if (!command) return scriptedText(`${context.step} got no command.`);
  return scriptedToolCalls([{ name: command[1]!, args: JSON.parse(command[2]!) as Record<string, unknown> }]);
};

const call = (name: string, args: Record<string, unknown>) => `!${name} ${JSON.stringify(args)}`;
const noClaims = call("record_claims", { claims: [] });

/** $425,000 masonry, built 1987, 97214, $1,000 deductible, no claims: $1,472.625 → 147263 cents. */
const QUOTED = [
  call("save_dwelling_value", { dollars: 425_000 }),
  call("save_construction", { description: "brick" }),
  call("save_year_built", { year: 1987 }),
  call("save_zip_code", { zipCode: "97214" }),
  call("save_deductible", { dollars: 1_000 }),
  call("save_claims_history", { description: noClaims }),
];
const ACCEPTED = [...QUOTED, call("accept_quote", { premiumCents: 147_263 })];
const NAMED = [...ACCEPTED, call("save_insured_name", { name: "Maria Lopez" })];

interface Conversation {
  say(message: string): Promise<{ response: string; currentStep: string; runStatus: string }>;
  stored(): Promise<SessionDocument>;
}

/** A session of HomeInsuranceFlow on its own app and SQLite file (clock pinned to 2027-04-01), after `setup`. */
async function conversation(t: TestContext, setup: readonly string[]): Promise<Conversation> {
  const dir = await tempDir("home-insurance-tools");
  const app = await createApp({
    flows: [{ flow: HomeInsuranceFlow, scripts: { HomeInsuranceFlow: commanded, ClaimsHistory: commanded } }],
    config: loadConfig({ HOME_INSURANCE_FLOW_CURRENT_DATE: "2027-04-01T00:00:00.000Z" }),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite"), { scratch: true }),
    log: () => undefined,
  });
  t.after(async () => {
    await app.close();
    dir.remove();
  });
  const first = await app.engine.chat({ flow: "HomeInsuranceFlow", message: "hello" });
  const session = first.session;
  const say = (message: string) => app.engine.chat({ session, message });
  for (const message of setup) {
    const outcome = await say(message);
    assert.doesNotMatch(
      outcome.response,
      /Invalid arguments|got no command/,
      `setup "${message}" failed: ${outcome.response}`,
    );
  }
  return {
    say,
    stored: async () => {
      const document = await app.engine.fetchAll(session);
      assert.ok(document, "the session is stored");
      return document;
    },
  };
}

const withoutSeq = ({ seq: _seq, turn: _turn, ...entry }: ExecutionEntry) => entry;

interface InvalidCase {
  name: string;
  setup: readonly string[];
  message: string;
  reason: RegExp;
}

function assertStays(example: InvalidCase, tool: string): void {
  test(`${tool} stays on ${example.name}`, async (t) => {
    const chat = await conversation(t, example.setup);
    const before = await chat.stored();
    const outcome = await chat.say(example.message);
    const after = await chat.stored();
    assert.equal(outcome.currentStep, before.flow.currentStep, "the cursor moved");
    assert.equal(after.flow.currentStep, before.flow.currentStep, "the stored cursor moved");
    assert.equal(after.runStatus, "running");
    assert.match(outcome.response, example.reason);
    assert.deepEqual(withoutSeq(after.execution.at(-1)!), {
      step: before.flow.currentStep,
      kind: "tool",
      name: tool,
      outcome: "stay",
    });
    assert.deepEqual(after.steps, before.steps, "a refused answer changed the state");
  });
}

const quoteCases: Record<string, InvalidCase[]> = {
  save_dwelling_value: [
    {
      name: "a value over $1,500,000",
      setup: [],
      message: call("save_dwelling_value", { dollars: 1_500_001 }),
      reason: /\$1,500,001 is above that/,
    },
    {
      name: "a value under $100,000",
      setup: [],
      message: call("save_dwelling_value", { dollars: 99_999 }),
      reason: /\$99,999 is below that/,
    },
    {
      name: "a correction out of range after the quote",
      setup: QUOTED,
      message: call("save_dwelling_value", { dollars: 0 }),
      reason: /\$0 is below that/,
    },
  ],
  save_construction: [
    {
      name: "a material it does not rate",
      setup: [],
      message: call("save_construction", { description: "straw bales" }),
      reason: /"straw bales" is not a construction we rate/,
    },
    {
      name: "words naming two classes",
      setup: [],
      message: call("save_construction", { description: "brick and wood" }),
      reason: /more than one construction/,
    },
  ],
  save_year_built: [
    {
      name: "a year in the future",
      setup: [],
      message: call("save_year_built", { year: 2028 }),
      reason: /built in 2028: it is 2027 now/,
    },
    {
      name: "a year before 1800",
      setup: [],
      message: call("save_year_built", { year: 1492 }),
      reason: /1492 is before 1800/,
    },
    {
      name: "a correction into the future after the quote",
      setup: QUOTED,
      message: call("save_year_built", { year: 2031 }),
      reason: /built in 2031/,
    },
  ],
  save_zip_code: [
    {
      name: "a ZIP that is not 5 digits",
      setup: [],
      message: call("save_zip_code", { zipCode: "9720" }),
      reason: /"9720" is not a 5-digit ZIP code/,
    },
    {
      name: "a ZIP+4",
      setup: [],
      message: call("save_zip_code", { zipCode: "97214-1234" }),
      reason: /not a 5-digit ZIP code/,
    },
    {
      name: "a ZIP outside the service area",
      setup: [],
      message: call("save_zip_code", { zipCode: "10001" }),
      reason: /10001 is outside our service area/,
    },
  ],
  save_deductible: [
    {
      name: "a deductible that is not offered",
      setup: [],
      message: call("save_deductible", { dollars: 750 }),
      reason: /\$750 deductible is not offered/,
    },
  ],
  save_claims_history: [
    {
      name: "three claims in five years",
      setup: [],
      message: call("save_claims_history", {
        description: call("record_claims", {
          claims: [
            { year: 2024, cause: "burst pipe" },
            { year: 2025, cause: "fire" },
            { year: 2026, cause: "hail" },
          ],
        }),
      }),
      reason: /3 claims in the last five years .* not eligible/,
    },
    {
      name: "a claim in the future",
      setup: [],
      message: call("save_claims_history", {
        description: call("record_claims", { claims: [{ year: 2030, cause: "fire" }] }),
      }),
      reason: /claim in 2030 \(fire\) is in the future/,
    },
    {
      name: "an account the child could not list",
      setup: [],
      message: call("save_claims_history", { description: "a few, I forget when" }),
      reason: /could not be recorded: ListClaimsStep got no command/,
    },
  ],
  accept_quote: [
    {
      name: "no quote yet",
      setup: QUOTED.slice(0, 3),
      message: call("accept_quote", { premiumCents: 147_263 }),
      reason: /no quote to accept yet: the ZIP code is still missing/,
    },
    {
      name: "a premium that is not the current quote's",
      setup: QUOTED,
      message: call("accept_quote", { premiumCents: 100_000 }),
      reason: /current quote is \$1,472\.63 a year, not \$1,000/,
    },
  ],
};

const bindCases: Record<string, InvalidCase[]> = {
  save_insured_name: [
    {
      name: "a placeholder name",
      setup: ACCEPTED,
      message: call("save_insured_name", { name: "  Test " }),
      reason: /"Test" is a placeholder/,
    },
    {
      name: "a single name",
      setup: ACCEPTED,
      message: call("save_insured_name", { name: "Cher" }),
      reason: /first and a last name; "Cher"/,
    },
  ],
  bind_policy: [
    {
      name: "no named insured yet",
      setup: ACCEPTED,
      message: call("bind_policy", { effectiveDate: "2027-05-01" }),
      reason: /full name is still missing/,
    },
    {
      name: "a date not written as YYYY-MM-DD",
      setup: NAMED,
      message: call("bind_policy", { effectiveDate: "May 1st" }),
      reason: /"May 1st" is not a date written as YYYY-MM-DD/,
    },
    {
      name: "a date that does not exist",
      setup: NAMED,
      message: call("bind_policy", { effectiveDate: "2027-02-30" }),
      reason: /not a date/,
    },
    {
      name: "a start date in the past",
      setup: NAMED,
      message: call("bind_policy", { effectiveDate: "2027-03-31" }),
      reason: /2027-03-31, which is in the past: today is 2027-04-01/,
    },
    {
      name: "a start date over 60 days ahead",
      setup: NAMED,
      message: call("bind_policy", { effectiveDate: "2027-06-01" }),
      reason: /latest start date is 2027-05-31/,
    },
  ],
};

describe("HomeInsuranceFlow: QuoteStep's tools stay on invalid answers", () => {
  for (const [tool, cases] of Object.entries(quoteCases)) for (const example of cases) assertStays(example, tool);
});

describe("HomeInsuranceFlow: BindStep's tools stay on invalid answers", () => {
  for (const [tool, cases] of Object.entries(bindCases)) for (const example of cases) assertStays(example, tool);
});

describe("ClaimsHistory: record_claims stays on invalid claims, and so does its parent", () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    [
      "a year before 1900",
      { claims: [{ year: 1850, cause: "fire" }] },
      /1850 is not a plausible year for the fire claim/,
    ],
    ["a blank cause", { claims: [{ year: 2024, cause: "   " }] }, /claim of 2024 has no cause/],
  ];
  for (const [name, args, reason] of refused) {
    test(`record_claims stays on ${name}`, async (t) => {
      const chat = await conversation(t, QUOTED.slice(0, 5));
      const before = await chat.stored();
      const outcome = await chat.say(call("save_claims_history", { description: call("record_claims", args) }));
      const after = await chat.stored();
      const child = after.children.at(-1)!;
      assert.equal(child.flow, "ClaimsHistory");
      assert.equal(child.runStatus, "running");
      assert.equal(child.currentStep, "ListClaimsStep");
      assert.deepEqual(child.steps, { ListClaimsStep: {} });
      assert.deepEqual(child.execution.map(withoutSeq), [
        { step: "ListClaimsStep", kind: "tool", name: "record_claims", outcome: "stay" },
      ]);
      assert.match(outcome.response, /could not be recorded/);
      assert.match(outcome.response, reason);
      assert.equal(outcome.currentStep, "QuoteStep");
      assert.deepEqual(after.steps, before.steps);
    });
  }
});

describe("HomeInsuranceFlow: the answers next to the refused ones are taken", () => {
  test("the quote is rated once the last fact is saved, and accepting it moves to BindStep", async (t) => {
    const chat = await conversation(t, QUOTED);
    const quoted = await chat.stored();
    assert.equal((quoted.steps["QuoteStep"]?.["quote"] as { premiumCents: number }).premiumCents, 147_263);
    const accepted = await chat.say(call("accept_quote", { premiumCents: 147_263 }));
    assert.equal(accepted.currentStep, "BindStep");
  });

  for (const effectiveDate of ["2027-04-01", "2027-05-31"]) {
    test(`a start date of ${effectiveDate}, at the edge of the window, binds the policy`, async (t) => {
      const chat = await conversation(t, NAMED);
      const bound = await chat.say(call("bind_policy", { effectiveDate }));
      assert.equal(bound.runStatus, "completed");
      assert.match(
        bound.response,
        new RegExp(
          `Bound policy HO-2027-[0-9A-F]{8} for Maria Lopez: \\$1,472\\.63 a year, cover from ${effectiveDate}`,
        ),
      );
    });
  }
});
