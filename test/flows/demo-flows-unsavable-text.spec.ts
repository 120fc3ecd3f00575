import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ToolResult } from "../../src/engine/index.ts";
import { NormalizeAddressStep } from "../../src/flows/basic/address-check/normalize-address-step.ts";
import { AddressStep } from "../../src/flows/basic/address-step.ts";
import { NameStep } from "../../src/flows/basic/name-step.ts";
import { WeatherStep } from "../../src/flows/basic/weather-step.ts";
import { BindStep } from "../../src/flows/home-insurance/bind-step.ts";
import { ListClaimsStep } from "../../src/flows/home-insurance/claims-history/list-claims-step.ts";
import { QuoteStep } from "../../src/flows/home-insurance/quote-step.ts";
import { BookStep } from "../../src/flows/hotel/book-step.ts";
import { DatesStep } from "../../src/flows/hotel/dates-step.ts";
import { ExploreStep } from "../../src/flows/hotel/explore-step.ts";
import { demoFlows } from "../../src/flows/index.ts";
import { CustomerStep } from "../../src/flows/invoice/customer-step.ts";
import { LineItemsStep } from "../../src/flows/invoice/line-items-step.ts";
import { jsonClient } from "../support/json-client.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

// Every demo tool that saves free text refuses a control character or a lone surrogate with stay
// (characterProblem) and saves nothing. The scenarios prove control characters turn by turn; lone
// surrogates are proved here instead, since the scenarios also run live and a strict JSON parser
// refuses "\ud800" in a request body, so a live model call (and the judge's, which quotes the
// user) would fail with it. The scripted model sends nothing anywhere.

/** Calls a tool method as the engine would, with a context that has only the step's state: each check comes before anything else is read. */
type ToolCall = (text: string, state: Record<string, unknown>) => ToolResult | Promise<ToolResult>;
const only = (state: Record<string, unknown>) => ({ state }) as never;

/** Each text-saving tool, with the free text put where a valid call of it has text. */
const TEXT_TOOLS: Record<string, ToolCall> = {
  "NameStep.save_name": (text, state) => new NameStep().saveName({ name: text }, only(state)),
  "WeatherStep.get_weather": (text, state) => new WeatherStep().getWeather({ cityName: text }, only(state)),
  "AddressStep.check_address": (text, state) => new AddressStep().checkAddress({ address: text }, only(state)),
  "NormalizeAddressStep.normalize_address (street)": (text, state) =>
    new NormalizeAddressStep().normalizeAddress(
      { street: text, city: "Beaverton", state: "OR", zip: "97006" },
      only(state),
    ),
  "NormalizeAddressStep.normalize_address (city)": (text, state) =>
    new NormalizeAddressStep().normalizeAddress(
      { street: "1600 SW Murray Blvd", city: text, state: "OR", zip: "97006" },
      only(state),
    ),
  "ExploreStep.choose_hotels": (text, state) =>
    new ExploreStep().chooseHotels({ hotels: ["Rose City Lodge", text] }, only(state)),
  "DatesStep.set_stay_dates": (text, state) => new DatesStep().setStayDates({ dates: text }, only(state)),
  "BookStep.book_stay": (text, state) => new BookStep().bookStay({ hotels: [text] }, only(state)),
  "CustomerStep.save_customer (name)": (text, state) =>
    new CustomerStep().saveCustomer({ name: text, email: "ap@acme.example" }, only(state)),
  "CustomerStep.save_customer (email)": (text, state) =>
    new CustomerStep().saveCustomer({ name: "Acme, Inc.", email: text }, only(state)),
  "LineItemsStep.add_line_item": (text, state) =>
    new LineItemsStep().addLineItem(
      { description: text, quantity: "2", unit_price: "$5.00", tax_rate: "8.25%" },
      only(state),
    ),
  "QuoteStep.save_construction": (text, state) => new QuoteStep().saveConstruction({ description: text }, only(state)),
  "QuoteStep.save_claims_history": (text, state) =>
    new QuoteStep().saveClaimsHistory({ description: text }, only(state)),
  "ListClaimsStep.record_claims": (text, state) =>
    new ListClaimsStep().recordClaims({ claims: [{ year: 2021, cause: text }] }, only(state)),
  "BindStep.save_insured_name": (text, state) => new BindStep().saveInsuredName({ name: text }, only(state)),
};

for (const [name, call] of Object.entries(TEXT_TOOLS)) {
  test(`${name} refuses text with a NUL, a C1 control or a lone surrogate with stay, saving nothing`, async () => {
    for (const [text, problem] of [
      ["Rose\u0000City", "a control character (U+0000)"],
      ["Rose City\u009b", "a control character (U+009B)"],
      ["Rose\uDBFF City", "a broken character (U+DBFF"],
    ] as const) {
      const state = {};
      const result = await call(text, state);
      assert.equal(result.kind, "stay", `${JSON.stringify(text)}: ${result.message}`);
      assert.ok(result.message.includes(` contains ${problem}`), result.message);
      assert.deepEqual(state, {}, `${JSON.stringify(text)} was saved`);
    }
  });
}

// In a describe, so the server (and the loopback guard a scripted app holds) lives only while these
// tests run: specs share a process under flowcheck test, and a file's top-level hooks would span them all.
describe("the demo flows over HTTP", () => {
  let server: TestServer;
  let client: ReturnType<typeof jsonClient>;

  before(async () => {
    server = await startTestServer({ flows: demoFlows, env: { FLOW_MODEL: "scripted" } });
    client = jsonClient(server.url);
  });

  after(async () => {
    client.close();
    await server.close();
  });

  /** A new session's first message over HTTP: the step it is on after it, the answer, and the stored session. */
  async function firstMessage(flow: string, message: string) {
    const answer = await client.post("/ai/chat", { flow, message });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const document = await server.app.engine.fetchAll(String(answer.body["session"]));
    assert.ok(document);
    return { step: String(answer.body["currentStep"]), response: String(answer.body["response"]), document };
  }

  const CASES: { flow: string; message: string; step: string; half: string }[] = [
    { flow: "BasicFlow", message: "John\uD800Wick", step: "NameStep", half: "U+D800" },
    { flow: "HotelFlow", message: "Pearl District Inn\uD83D and Rose City Lodge", step: "ExploreStep", half: "U+D83D" },
    { flow: "InvoiceFlow", message: "Acme, Inc., ap\uDC00@acme.example", step: "CustomerStep", half: "U+DC00" },
    { flow: "HomeInsuranceFlow", message: "It's made of brick\uDE00", step: "QuoteStep", half: "U+DE00" },
  ];

  for (const { flow, message, step, half } of CASES) {
    test(`${flow} stays on ${step} for text with a lone surrogate (${half}), saves nothing, and says why`, async () => {
      const turn = await firstMessage(flow, message);
      assert.equal(turn.step, step);
      assert.deepEqual(turn.document.steps[step] ?? {}, {});
      assert.deepEqual(
        turn.document.execution.map((entry) => [entry.kind, entry.outcome]),
        [["tool", "stay"]],
        "one tool ran and stayed; no child flow ran",
      );
      assert.ok(
        turn.response.includes(`contains a broken character (${half}, half of a character such as an emoji)`),
        turn.response,
      );
      assert.equal(
        turn.document.memory["flow"]?.[0]?.content,
        message,
        "the message reached the session as it was sent, the lone half included",
      );
    });
  }

  test("a name with an emoji (a whole surrogate pair) and accented letters is saved as sent", async () => {
    const turn = await firstMessage("BasicFlow", "Zoë Ångström 😀");
    assert.equal(turn.step, "WeatherStep");
    assert.deepEqual(turn.document.steps["NameStep"], { name: "Zoë Ångström 😀" });
  });
});
