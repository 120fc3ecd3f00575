import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { measureStrength } from "../../../src/testing/strength/measure-strength.ts";
import { differenceLine } from "../../../src/testing/strength/render-strength.ts";
import { envWith } from "../../support/env-with.ts";
import { ledgerFlows } from "../../support/ledger-flow.ts";
import { tempDir } from "../../support/temp-path.ts";

const root = join(import.meta.dirname, "..", "..", "fixtures", "strength");

async function measured(name: string) {
  const scratch = await tempDir("strength");
  try {
    return await measureStrength({
      files: [join(root, `${name}.scenario.json`)],
      root,
      flows: ledgerFlows,
      env: envWith({ FLOW_MODEL: undefined, FLOW_BASE_URL: undefined, FLOW_TARGET: undefined }),
      scratchDir: scratch.path,
      turnTimeoutMs: 10_000,
    });
  } finally {
    scratch.remove();
  }
}

const verdictOf = (result: Awaited<ReturnType<typeof measured>>, id: string) =>
  result.judged.find(({ mutant }) => mutant.id === id)?.verdict;

test("a scenario checking the CSV's rows kills the render mutant, and its streamed turn's transport check kills the stream mutant", async () => {
  const result = await measured("ledger-csv-checked");
  assert.deepEqual(result.failing, []);
  const render = verdictOf(result, "LedgerFlow: alter text/csv rendering");
  assert.ok(render?.verdict === "killed" && render.by === "check", JSON.stringify(render));
  assert.equal(render.check, "expectation expectCsvRows");
  assert.equal(render.turn?.label, "bolts as CSV");
  const stream = verdictOf(result, "LedgerFlow: alter event stream");
  assert.ok(stream?.verdict === "killed" && stream.by === "check", JSON.stringify(stream));
  assert.equal(stream.check, "transport body");
  assert.match(
    stream.message,
    /the token events spell "Added line " but the "done" event's response is "Added line 2\."/,
  );
});

test("a scenario that asks for CSV without checking its rows lets the render mutant survive, naming the expectCsvRows; no stream asked, no stream mutant", async () => {
  const result = await measured("ledger-csv-unchecked");
  const render = verdictOf(result, "LedgerFlow: alter text/csv rendering");
  assert.equal(render?.verdict, "survived");
  assert.deepEqual(render.differences.map(differenceLine), [
    `ledger-csv-unchecked turn 1 'bolts as CSV': CSV row 1 had status "running·" instead of "running" ` +
      `and nothing checked it — add "expectCsvRows": [{"status":"running"}]`,
  ]);
  assert.equal(verdictOf(result, "LedgerFlow: alter event stream"), undefined);
});
