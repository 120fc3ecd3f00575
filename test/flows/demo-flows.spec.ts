import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import { demoFlows } from "../../src/flows/index.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../support/temp-path.ts";

test("GET /ai/flows lists the four demo flows with their steps", async () => {
  const dir = await tempDir("demo-flows");
  const app = await createApp({
    flows: demoFlows,
    config: loadConfig({}),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
    log: () => undefined,
  });
  try {
    const response = await app.handler({ method: "GET", url: "/ai/flows", headers: {}, body: "" });
    assert.equal(response.status, 200);
    const flows = (
      JSON.parse(response.body as string) as { flows: { name: string; description: string; steps: string[] }[] }
    ).flows;
    assert.deepStrictEqual(
      flows.map((flow) => flow.name),
      ["BasicFlow", "HotelFlow", "InvoiceFlow", "HomeInsuranceFlow"],
    );
    assert.deepStrictEqual(flows[0], {
      name: "BasicFlow",
      description: "Asks for a real name, reports the weather in two cities, and saves a validated US address.",
      steps: ["NameStep", "WeatherStep", "AddressStep"],
    });
    for (const flow of flows) {
      assert.ok(flow.description.length > 0 && flow.steps.length > 0, `${flow.name} has a description and steps`);
    }
  } finally {
    await app.close();
    dir.remove();
  }
});
