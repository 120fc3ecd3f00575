import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { changedRuns } from "../../../support/changed-runs.ts";
import { runFlowcheck } from "../../../support/child-run.ts";
import { HeadlessChromium, NO_CHROMIUM } from "../../../support/headless-chromium.ts";
import { tempDir } from "../../../support/temp-path.ts";

// The page flowcheck report --compare writes for two runs with a newly failing, a fixed and a
// flaky scenario, opened from its file in headless Chromium with the network cut off.
describe("what changed since the older run, on the page in a real browser", { skip: NO_CHROMIUM }, () => {
  let dir: { path: string; remove(): void };
  let browser: HeadlessChromium;

  before(async () => {
    dir = await tempDir("report-changes");
    const launched = HeadlessChromium.launch();
    const { older, newer } = changedRuns();
    writeFileSync(join(dir.path, "older.json"), JSON.stringify(older));
    writeFileSync(join(dir.path, "newer.json"), JSON.stringify(newer));
    try {
      const child = await runFlowcheck(
        ["report", "newer.json", "--compare", "older.json", "--out", "page.html"],
        {},
        undefined,
        dir.path,
      );
      assert.equal(child.code, 0, child.stdout + child.stderr);
    } finally {
      browser = await launched;
    }
  });

  after(async () => {
    await browser?.close();
    dir?.remove();
  });

  test("the first thing under the header is what changed: newly failing, fixed, flaky, in that order, the newly failing one's line shown", async () => {
    const { page, errors, requests } = await browser.open(join(dir.path, "page.html"));
    const first = page.locator("main > header + section");
    assert.match(
      (await first.locator("h2").textContent()) ?? "",
      /^Changed since 2026-11-30T03:17:00\.000Z \(a1b2c3d4e5f6\)$/,
    );
    assert.ok(await first.isVisible());
    assert.deepEqual(await first.locator(".change-group > h3").allTextContents(), [
      "Newly failing 1",
      "Fixed 1",
      "Flaky 1",
    ]);
    const newlyFailing = first.locator('.change-group[data-group="newly failing"] li').first();
    assert.match(
      (await newlyFailing.textContent()) ?? "",
      /^BasicFlow: checkoutjourneys\/checkout\.scenario\.json:12 turn 2/,
    );
    assert.match(
      (await first.locator('.change-group[data-group="flaky"]').textContent()) ?? "",
      /BasicFlow: booking 2 of 3 passed now, 3 of 3 passed before/,
    );
    const [top, conversations] = await Promise.all([first.boundingBox(), page.locator("#conversations").boundingBox()]);
    assert.ok(top && conversations && top.y < conversations.y, "the section is above the conversations");
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
  });
});
