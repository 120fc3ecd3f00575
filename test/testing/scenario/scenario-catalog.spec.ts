import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ScenarioCatalog } from "../../../src/testing/scenario/scenario-catalog.ts";
import { tempDir } from "../../support/temp-path.ts";

const turns = [{ label: "greets", input: "hello", expectedActiveStep: "FarewellStep" }];

test("a run's catalog scans a folder and reads a header once: what changes after is the next run's to see", async (t) => {
  const dir = await tempDir("scenario-catalog");
  t.after(dir.remove);
  const journeys = join(dir.path, "journeys");
  mkdirSync(journeys);
  const first = join(journeys, "first.scenario.json");
  writeFileSync(first, JSON.stringify({ flowName: "RelayFlow", turns }));
  const run = new ScenarioCatalog();
  const found = run.under(journeys);
  assert.deepEqual(found.files, [first]);
  assert.equal(run.headerOf(first)?.flowName, "RelayFlow");

  writeFileSync(join(journeys, "second.scenario.json"), JSON.stringify({ flowName: "RelayFlow", turns }));
  writeFileSync(first, JSON.stringify({ flowName: "TallyFlow", turns }));
  assert.equal(run.under(journeys), found, "the folder is not scanned again");
  assert.equal(run.selected([journeys]).files.length, 2, "a selection is a scan of its own");
  assert.equal(run.headerOf(first)?.flowName, "RelayFlow", "the header is not read again");

  const next = new ScenarioCatalog();
  assert.equal(next.under(journeys).files.length, 2);
  assert.equal(next.headerOf(first)?.flowName, "TallyFlow");
});
