import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { HeadlessChromium, NO_CHROMIUM } from "../../../support/headless-chromium.ts";
import { INJECTIONS, runReportFixture } from "../../../support/report-fixture-run.ts";
import { tempDir, TMP_ROOT } from "../../../support/temp-path.ts";
import type { ChildRun } from "../../../support/child-run.ts";

// The page a real fixture run writes, opened from its file in headless Chromium with the network
// cut off. The run has secrets in its environment that must not reach the page.

const API_KEY = "sk-test-report-0123456789";
const HEADER_VALUE = "Bearer staging-report-secret-42";
const USERS_PAGE = join(TMP_ROOT, "report.html");

// Each test reads the one page in a browser context of its own, so they run side by side.
describe("the run's HTML page in a real browser", { skip: NO_CHROMIUM, concurrency: 2 }, () => {
  let dir: { path: string; remove(): void };
  let browser: HeadlessChromium;
  let run: ChildRun;
  let page: string;
  let usersPageBefore: number | undefined;

  before(async () => {
    usersPageBefore = existsSync(USERS_PAGE) ? statSync(USERS_PAGE).mtimeMs : undefined;
    dir = await tempDir("report-page");
    // JUDGE=off and an unreachable loopback base URL: the key is there to be redacted, never used.
    // The browser starts while the run plays: neither needs the other until the tests.
    const launched = HeadlessChromium.launch();
    try {
      run = await runReportFixture(dir.path, {
        OPENAI_API_KEY: API_KEY,
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        JUDGE: "off",
        FLOW_HEADERS: JSON.stringify({ Authorization: HEADER_VALUE }),
      });
    } finally {
      browser = await launched;
    }
    page = join(dir.path, "test", ".tmp", "report.html");
  });

  after(async () => {
    await browser?.close();
    dir?.remove();
  });

  test("a fixture run writes report.html beside its run-results.json in its own folder, not over the user's test/.tmp/report.html", () => {
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.ok(existsSync(join(dir.path, "test", ".tmp", "run-results.json")));
    assert.ok(existsSync(page), run.stdout);
    assert.equal(existsSync(USERS_PAGE) ? statSync(USERS_PAGE).mtimeMs : undefined, usersPageBefore);
  });

  test("no API key or FLOW_HEADERS value is anywhere in the page or the results", () => {
    for (const file of [page, join(dir.path, "test", ".tmp", "run-results.json")]) {
      const text = readFileSync(file, "utf8");
      assert.ok(!text.includes(API_KEY) && !text.includes(HEADER_VALUE), `${file} holds a secret`);
    }
  });

  test("the page loads with no console error and no request leaving it; the failed turn shows first with its failing check, expected and actual, and the state diff", async () => {
    const opened = await browser.open(page);
    const first = opened.page.locator("details.conversation").first();
    assert.equal(await first.getAttribute("data-outcome"), "failed");
    const failedTurn = first.locator("section.turn.failed").first();
    assert.ok(await failedTurn.isVisible());
    assert.match((await failedTurn.locator("h4").textContent()) ?? "", /2\. name accepted/);
    assert.match(
      (await failedTurn.locator(".check.failed").first().textContent()) ?? "",
      /expectedActiveStep.*expected active step AddressStep/,
    );
    assert.ok(await failedTurn.locator(".compare").isVisible());
    assert.match((await failedTurn.locator(".change").textContent()) ?? "", /NameStep\.name = "John Wick"/);
    assert.deepEqual(opened.errors, []);
    assert.deepEqual(opened.requests, []);
  });

  test("with JavaScript off the failure and its checks are still on the page, the filter left hidden", async () => {
    const { page: tab, errors } = await browser.open(page, { javaScript: false });
    assert.ok(await tab.locator("details.conversation.failed .check.failed").first().isVisible());
    assert.ok(await tab.locator("details.conversation.failed .reason").isVisible());
    assert.equal(await tab.locator("#filters").isVisible(), false);
    assert.deepEqual(errors, []);
  });

  test("a click expands a passed scenario, and the filter by outcome and by text hides the others", async () => {
    const { page: tab, errors } = await browser.open(page);
    const passed = tab.locator("details.conversation.passed").first();
    const firstTurn = passed.locator("section.turn").first();
    assert.equal(await firstTurn.isVisible(), false);
    await passed.locator(":scope > summary").click();
    assert.ok(await firstTurn.isVisible());
    await tab.selectOption("select[name=outcome]", "passed");
    assert.equal(await tab.locator("details.conversation.failed").isVisible(), false);
    assert.match((await tab.locator("#shown").textContent()) ?? "", /^2 of 3 shown$/);
    await tab.selectOption("select[name=outcome]", "");
    await tab.fill("input[name=text]", "john wick");
    assert.match((await tab.locator("#shown").textContent()) ?? "", /^2 of 3 shown$/);
    assert.deepEqual(errors, []);
  });

  test("markup a user typed renders as text: no alert, no image, the input shown as typed", async () => {
    const { page: tab, errors, requests } = await browser.open(page);
    let dialogs = 0;
    tab.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const conversation = tab.locator("details.conversation", { hasText: "markup-as-name" });
    await conversation.locator(":scope > summary").click();
    const inputs = await conversation.locator(".bubble.user").allTextContents();
    assert.deepEqual(inputs, INJECTIONS);
    assert.equal(await tab.locator("img").count(), 0);
    assert.equal(await tab.locator("script").count(), 1);
    assert.equal(dialogs, 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
  });
});
