import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCsv } from "../../../src/testing/index.ts";
import { InvoiceConversation, widgets } from "./invoice-conversation.ts";

describe("InvoiceFlow: lines, confirmation and issue", () => {
  test("save_customer saves the name with its spaces tidied and the email's domain in lower case, and moves to LineItemsStep", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    const outcome = await conversation.call({
      name: "save_customer",
      args: { name: "  Acme,   Inc. ", email: " AP@Acme.Example " },
    });
    assert.equal(outcome.currentStep, "LineItemsStep");
    assert.deepStrictEqual((await conversation.document()).steps["CustomerStep"], {
      name: "Acme, Inc.",
      email: "AP@acme.example",
    });
  });

  test("adding and removing lines keeps the stored totals the sums of the lines, and each answer shows the running total", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    const first = await conversation.call(widgets());
    assert.match(
      first.response,
      /^Added line 1, widgets: 3 × \$12\.50 = \$37\.50 \+ \$3\.09 tax \(8\.25%\) = \$40\.59\. Running total: subtotal \$37\.50, tax \$3\.09, total \$40\.59\./,
    );
    await conversation.call({
      name: "add_line_item",
      args: { description: "stickers", quantity: "10", unit_price: "0.25", tax_rate: "5" },
    });
    const removed = await conversation.call({ name: "remove_line_item", args: { line: 1 } });
    assert.match(
      removed.response,
      /^Removed line 1 \(widgets\); the lines after it moved up\. Running total: subtotal \$2\.50, tax \$0\.13, total \$2\.63\./,
    );
    const state = (await conversation.document()).steps["LineItemsStep"];
    assert.deepStrictEqual(state, {
      items: [
        {
          description: "stickers",
          quantity: 10,
          unitCents: 25,
          taxRateBasisPoints: 500,
          netCents: 250,
          taxCents: 13,
          totalCents: 263,
        },
      ],
      subtotalCents: 250,
      taxCents: 13,
      totalCents: 263,
    });
  });

  test("the prompts carry the lines and totals the tools computed, so the model never does the arithmetic", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachLineItems();
    assert.match(
      conversation.lastPrompt("LineItemsStep"),
      /^You are adding line items to the invoice for Acme, Inc\. \(ap@acme\.example\), one item per user message\. /,
    );
    assert.match(
      conversation.lastPrompt("LineItemsStep"),
      / Items so far: none\. Running total: subtotal \$0\.00, tax \$0\.00, total \$0\.00\.$/,
    );
    await conversation.call(widgets());
    assert.match(
      conversation.lastPrompt("LineItemsStep"),
      / Items so far: line 1, widgets: 3 × \$12\.50 = \$37\.50 \+ \$3\.09 tax \(8\.25%\) = \$40\.59\. Running total: subtotal \$37\.50, tax \$3\.09, total \$40\.59\.$/,
    );
    const outcome = await conversation.call({ name: "finish_items", args: {} });
    assert.equal(outcome.currentStep, "ConfirmStep");
    assert.equal(outcome.response, "ConfirmStep entered.");
    assert.match(
      conversation.lastPrompt("ConfirmStep"),
      / Summary: Invoice for Acme, Inc\. \(ap@acme\.example\): line 1, widgets: 3 × \$12\.50 = \$37\.50 \+ \$3\.09 tax \(8\.25%\) = \$40\.59\. Totals: subtotal \$37\.50, tax \$3\.09, total \$40\.59\.$/,
    );
  });

  test("no goes back to LineItemsStep and counts the request; yes then issues on the pinned clock with net 30", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachConfirm();
    const back = await conversation.call({ name: "answer_confirmation", args: { answer: "No, one more thing" } });
    assert.equal(back.currentStep, "LineItemsStep");
    assert.deepStrictEqual((await conversation.document()).steps["ConfirmStep"], { changesRequested: 1 });
    await conversation.call(widgets("2"));
    await conversation.call({ name: "finish_items", args: {} });
    const issued = await conversation.call({ name: "answer_confirmation", args: { answer: "Yes, issue it." } });
    assert.equal(issued.runStatus, "completed");
    const confirm = (await conversation.document()).steps["ConfirmStep"];
    assert.deepStrictEqual(Object.keys(confirm ?? {}), ["changesRequested", "invoiceNumber", "issuedOn", "dueOn"]);
    assert.equal(confirm?.["issuedOn"], "2027-07-15");
    assert.equal(confirm?.["dueOn"], "2027-08-14");
    assert.match(String(confirm?.["invoiceNumber"]), /^INV-20270715-[0-9A-F]{6}$/);
    assert.match(
      issued.response,
      new RegExp(
        `^Issued invoice ${String(confirm?.["invoiceNumber"])} to Acme, Inc\\. on 2027-07-15, due 2027-08-14 \\(net 30\\): total \\$67\\.65\\.`,
      ),
    );
  });

  test("another INVOICE_FLOW_CURRENT_DATE gives another issue date, due date and invoice number", async (t) => {
    // Each app in a subtest of its own: apps patch the model and the network, and must close in turn.
    const issue = async (pin: string) => {
      let confirm: Record<string, unknown> | undefined;
      await t.test(`issued on ${pin}`, async (sub) => {
        const conversation = await InvoiceConversation.open(sub, pin);
        await conversation.reachConfirm();
        await conversation.call({ name: "answer_confirmation", args: { answer: "yes" } });
        confirm = (await conversation.document()).steps["ConfirmStep"];
      });
      return confirm;
    };
    const july = await issue("2027-07-15T09:30:00.000Z");
    const leap = await issue("2028-02-10T23:59:59.000Z");
    assert.deepStrictEqual([leap?.["issuedOn"], leap?.["dueOn"]], ["2028-02-10", "2028-03-11"]);
    assert.equal(String(leap?.["invoiceNumber"]), String(july?.["invoiceNumber"]).replace("20270715", "20280210"));
  });

  test("the engine renders the session as CSV: a draft without an invoice number, then the issued invoice", async (t) => {
    const conversation = await InvoiceConversation.open(t);
    await conversation.reachConfirm();
    const draft = parseCsv((await conversation.engine.render(conversation.session, "text/csv")) ?? "");
    assert.deepStrictEqual(
      draft.rows.map((row) => [row["invoice"], row["kind"], row["total"]]),
      [
        ["", "item", "40.59"],
        ["", "total", "40.59"],
      ],
    );
    await conversation.call({ name: "answer_confirmation", args: { answer: "yes" } });
    const number = String((await conversation.document()).steps["ConfirmStep"]?.["invoiceNumber"]);
    const issued = parseCsv((await conversation.engine.render(conversation.session, "text/csv")) ?? "");
    assert.deepStrictEqual(
      issued.rows.map((row) => row["invoice"]),
      [number, number],
    );
  });
});
