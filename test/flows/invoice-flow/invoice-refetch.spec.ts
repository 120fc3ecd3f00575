import assert from "node:assert/strict";
import { test } from "node:test";
import { invoiceFlowEntry } from "../../../src/flows/invoice/index.ts";
import { parseCsv } from "../../../src/testing/index.ts";
import { jsonClient } from "../../support/json-client.ts";
import { startTestServer } from "../../support/test-server.ts";
import { textRequest } from "../../support/text-request.ts";
import { PINNED } from "./invoice-conversation.ts";

test("an issued invoice is fetched again as CSV with GET /ai/sessions/:id, any number of times, while a further message is 409", async () => {
  const server = await startTestServer({ flows: [invoiceFlowEntry], env: { INVOICE_FLOW_CURRENT_DATE: PINNED } });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "InvoiceFlow", message: "Acme, Inc., ap@acme.example" });
    const id = first.body["session"] as string;
    for (const message of ["3 widgets at $12.50 with 8.25% tax", "done", "yes"]) {
      const answer = await client.post("/ai/chat", { message }, { CHAT_SESSION_ID: id });
      assert.equal(answer.status, 200, `${message}: ${JSON.stringify(answer.body)}`);
    }
    const issued = await server.app.store.fetchHead(id);
    assert.equal(issued?.runStatus, "completed");
    const number = String(issued?.steps["ConfirmStep"]?.["invoiceNumber"]);
    assert.match(number, /^INV-20270715-/);
    assert.equal(
      (await client.post("/ai/chat", { message: "Add one more widget" }, { CHAT_SESSION_ID: id })).status,
      409,
    );

    for (let fetch = 1; fetch <= 2; fetch++) {
      const csv = await textRequest(`${server.url}/ai/sessions/${id}`, { headers: { Accept: "text/csv" } });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.headers["content-type"], "text/csv; charset=utf-8");
      assert.equal(csv.headers["chat_session_id"], id);
      const rows = parseCsv(csv.text).rows.map((row) => [
        row["invoice"],
        row["kind"],
        row["description"],
        row["total"],
      ]);
      assert.deepStrictEqual(
        rows,
        [
          [number, "item", "widgets", "40.59"],
          [number, "total", "", "40.59"],
        ],
        `fetch ${fetch}`,
      );
    }
  } finally {
    client.close();
    await server.close();
  }
});
