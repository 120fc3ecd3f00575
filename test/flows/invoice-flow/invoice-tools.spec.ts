import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InvoiceConversation, widgets, type ToolCallCommand } from "./invoice-conversation.ts";

/**
 * Plays one tool call that must be refused by its handler: the answer is the tool's stay message,
 * the cursor and the run status do not move, the state is as before and the log says `stay`.
 */
async function assertStays(
  conversation: InvoiceConversation,
  call: ToolCallCommand,
  step: string,
  message: RegExp,
): Promise<void> {
  const before = await conversation.document();
  const outcome = await conversation.call(call);
  assert.match(outcome.response, message);
  assert.equal(outcome.currentStep, step);
  assert.equal(outcome.runStatus, "running");
  const after = await conversation.document();
  assert.equal(after.flow.currentStep, step);
  assert.deepStrictEqual(after.steps, before.steps, `${call.name} ${JSON.stringify(call.args)} changed the state`);
  assert.deepStrictEqual(after.execution.at(-1), {
    seq: before.execution.length + 1,
    turn: after.turns,
    step,
    kind: "tool",
    name: call.name,
    outcome: "stay",
  });
}

describe("InvoiceFlow: each tool's invalid input stays without moving the cursor", () => {
  test("save_customer with an invalid email stays on CustomerStep and saves nothing", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    const outcome = await conversation.call({
      name: "save_customer",
      args: { name: "Acme, Inc.", email: "ap-at-acme.example" },
    });
    assert.equal(
      outcome.response,
      '"ap-at-acme.example" is not an email address (it needs a name, an @ and a domain, like ap@acme.example). Ask the user for the customer\'s email address again.',
    );
    assert.equal(outcome.currentStep, "CustomerStep");
    const document = await conversation.document();
    assert.deepStrictEqual(document.steps["CustomerStep"], {});
    assert.deepStrictEqual(
      document.execution.map((entry) => [entry.name, entry.outcome]),
      [["save_customer", "stay"]],
    );
    await assertStays(
      conversation,
      { name: "save_customer", args: { name: "Acme, Inc.", email: "ap@acme" } },
      "CustomerStep",
      /"ap@acme" is not an email address/,
    );
  });

  test("save_customer with a blank name stays on CustomerStep", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.call({ name: "save_customer", args: { name: "Acme", email: "nope" } });
    await assertStays(
      conversation,
      { name: "save_customer", args: { name: "  \t ", email: "ap@acme.example" } },
      "CustomerStep",
      /^The customer's name is blank\./,
    );
  });

  test("add_line_item with an invalid quantity, price, rate or description stays on LineItemsStep with the lines and totals unchanged", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    await conversation.call(widgets());
    const invalid: [Record<string, string>, string][] = [
      [{ quantity: "0" }, "the quantity 0 is not between 1 and 100,000"],
      [{ quantity: "2.5" }, 'the quantity "2.5" is not a whole number'],
      [{ quantity: "three" }, 'the quantity "three" is not a whole number'],
      [{ unit_price: "$12.505" }, 'the unit price "$12.505" has more than 2 decimals'],
      [{ unit_price: "-$5.00" }, 'the unit price "-$5.00" is negative'],
      [{ unit_price: "12,50" }, 'the unit price "12,50" is not an amount of money'],
      [{ unit_price: "$2,000,000.00" }, "the unit price $2,000,000.00 is over $1,000,000.00"],
      [{ tax_rate: "8.255%" }, 'the tax rate "8.255%" has more than 2 decimals'],
      [{ tax_rate: "-1%" }, 'the tax rate "-1%" is negative'],
      [{ tax_rate: "101%" }, 'the tax rate "101%" is over 100%'],
      [{ description: "   " }, "the description is blank"],
    ];
    for (const [change, problem] of invalid) {
      const call = { name: "add_line_item", args: { ...widgets().args, ...change } };
      const escaped = problem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      await assertStays(
        conversation,
        call,
        "LineItemsStep",
        new RegExp(
          `^Not added: ${escaped}.*The running total is still subtotal \\$37\\.50, tax \\$3\\.09, total \\$40\\.59\\.`,
        ),
      );
    }
  });

  test("add_line_item refuses a line past the 100th and keeps the 100", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    // One model reply may carry many tool calls, so a single turn fills the invoice.
    await conversation.call(...Array.from({ length: 100 }, () => widgets("1")));
    const full = await conversation.document();
    assert.equal((full.steps["LineItemsStep"]?.["items"] as unknown[]).length, 100);
    await assertStays(conversation, widgets("1"), "LineItemsStep", /^Not added: an invoice holds at most 100 lines\./);
  });

  test("remove_line_item with a line number that is not on the invoice stays on LineItemsStep", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    await assertStays(
      conversation,
      { name: "remove_line_item", args: { line: 1 } },
      "LineItemsStep",
      /^There is no line 1 on the invoice; it has no lines yet\./,
    );
    await conversation.call(widgets());
    await assertStays(
      conversation,
      { name: "remove_line_item", args: { line: 2 } },
      "LineItemsStep",
      /^There is no line 2 on the invoice; its lines are 1 to 1\./,
    );
  });

  test("finish_items with no lines stays on LineItemsStep", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    await assertStays(
      conversation,
      { name: "finish_items", args: {} },
      "LineItemsStep",
      /^There are no line items yet, so there is nothing to confirm\./,
    );
  });

  test("answer_confirmation with neither yes nor no stays on ConfirmStep and issues nothing", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachConfirm();
    for (const answer of ["maybe", "not sure", "what is the total?"]) {
      await assertStays(
        conversation,
        { name: "answer_confirmation", args: { answer } },
        "ConfirmStep",
        new RegExp(`^"${answer.replace("?", "\\?")}" is neither yes nor no\\. Nothing was issued\\.`),
      );
    }
    assert.deepStrictEqual((await conversation.document()).steps["ConfirmStep"], {});
  });

  test("arguments the schema refuses never reach a handler: the log says invalid and the cursor stays", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    const outcome = await conversation.call(
      { name: "remove_line_item", args: { line: 0 } },
      { name: "add_line_item", args: { description: "widgets", quantity: 3 } },
    );
    assert.equal(outcome.currentStep, "LineItemsStep");
    const document = await conversation.document();
    assert.deepStrictEqual(
      document.execution.slice(-2).map((entry) => [entry.name, entry.outcome]),
      [
        ["remove_line_item", "invalid"],
        ["add_line_item", "invalid"],
      ],
    );
    assert.equal(document.steps["LineItemsStep"]?.["items"], undefined);
  });
});
