import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { answerSha256, parseJudgeLabels } from "../../../../src/testing/judge/judge-labels.ts";
import { runFlowcheck } from "../../../support/child-run.ts";
import { HeadlessChromium, NO_CHROMIUM } from "../../../support/headless-chromium.ts";
import { LONG_ANSWER, MARKUP_ANSWER, writeJudgedRun } from "../../../support/judged-run-results.ts";
import { downloadReportLabels } from "../../../support/report-labels-download.ts";
import { tempDir } from "../../../support/temp-path.ts";

// The page flowcheck report renders from a run with four judged turns, opened from its file in
// headless Chromium with the network cut off: a person labels verdicts and downloads the labels.

describe("labelling the judge's verdicts on the report's page", { skip: NO_CHROMIUM, concurrency: 2 }, () => {
  let dir: { path: string; remove(): void };
  let browser: HeadlessChromium;
  let results: string;
  let page: string;

  before(async () => {
    dir = await tempDir("report-labelling");
    const launched = HeadlessChromium.launch();
    try {
      results = writeJudgedRun(dir.path);
      page = join(dir.path, "report.html");
      const rendered = await runFlowcheck(["report", results, "--out", page]);
      assert.equal(rendered.code, 0, rendered.stderr);
    } finally {
      browser = await launched;
    }
  });

  after(async () => {
    await browser?.close();
    dir?.remove();
  });

  test("labels clicked on three turns, one wrong with a note, download as a labels file with their verdicts, hashes, inputs and conversations, and nothing leaves the page", async () => {
    const saved = join(dir.path, "judge-labels.json");
    const { counted, requests, errors } = await downloadReportLabels(
      browser,
      page,
      [
        { conversation: "booking", turn: "asks the date", right: true },
        { conversation: "booking", turn: "quotes the price", right: false, note: 'it says 120 € <b>"exactly"</b>' },
        { conversation: "refund", turn: "explains refunds", right: true },
      ],
      saved,
    );
    assert.equal(counted, "3 labelled");
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
    const labels = parseJudgeLabels(readFileSync(saved, "utf8"), saved);
    assert.deepEqual(
      labels.map(({ file, turn, human, note }) => ({ file, turn, human, note })),
      [
        { file: "journeys/booking.scenario.json", turn: "asks the date", human: "pass", note: undefined },
        {
          file: "journeys/booking.scenario.json",
          turn: "quotes the price",
          human: "pass",
          note: 'it says 120 € <b>"exactly"</b>',
        },
        { file: "journeys/refund.scenario.json", turn: "explains refunds", human: "fail", note: undefined },
      ],
    );
    const price = labels[1]!;
    assert.equal(price.answer, MARKUP_ANSWER);
    assert.equal(price.answerSha256, answerSha256(MARKUP_ANSWER));
    assert.equal(price.expected, "quotes the room's price & says breakfast is extra");
    assert.equal(price.input, "How much is it?");
    assert.deepEqual(price.conversation, [
      { user: "Hi, I am Ada", assistant: "Hello Ada! When do you arrive?" },
      { user: "A room please", assistant: "Thanks Ada. Which date would you like?" },
    ]);
    assert.deepEqual(price.judge, {
      outcome: "failed",
      score: 0.3,
      minScore: 0.75,
      reason: "it quotes no price <for breakfast>",
    });
    assert.equal(price.repeat, 1);
    assert.ok(!Number.isNaN(Date.parse(price.labelledAt ?? "")), price.labelledAt);
    assert.equal(labels[2]!.answerSha256, answerSha256(LONG_ANSWER));
    assert.deepEqual(labels[2]!.conversation, []);
  });

  test("a second click on the chosen button clears the label, the other button changes it, and the chosen one shows as chosen", async () => {
    const { page: tab, errors } = await browser.open(page);
    const box = tab.locator("details.conversation", { hasText: "refund" }).locator(".labelling");
    await tab.locator("details.conversation", { hasText: "refund" }).locator(":scope > summary").click();
    const right = box.locator("button[data-human=right]");
    const wrong = box.locator("button[data-human=wrong]");
    assert.equal(await tab.locator("#download-labels").isDisabled(), true);
    await right.click();
    assert.equal(await right.getAttribute("aria-pressed"), "true");
    assert.equal(await tab.locator("#labelled").textContent(), "1 labelled");
    await wrong.click();
    assert.equal(await right.getAttribute("aria-pressed"), "false");
    assert.equal(await wrong.getAttribute("aria-pressed"), "true");
    assert.match((await wrong.getAttribute("class")) ?? "", /chosen/);
    assert.equal(await tab.locator("#labelled").textContent(), "1 labelled");
    await wrong.click();
    assert.equal(await wrong.getAttribute("aria-pressed"), "false");
    assert.equal(await tab.locator("#labelled").textContent(), "0 labelled");
    assert.equal(await tab.locator("#download-labels").isDisabled(), true);
    assert.deepEqual(errors, []);
  });

  test("only turns with a verdict get the buttons, and without JavaScript the verdicts still show, the buttons and the labels bar hidden", async () => {
    const { page: tab, errors } = await browser.open(page, { javaScript: false });
    assert.equal(await tab.locator(".labelling").count(), 4);
    assert.equal(await tab.locator("#labels").isVisible(), false);
    const conversation = tab.locator("details.conversation", { hasText: "refund" });
    await conversation.locator(":scope > summary").click();
    assert.ok(await conversation.locator(".verdict").isVisible());
    assert.equal(await conversation.locator(".labelling").isVisible(), false);
    assert.deepEqual(errors, []);
  });

  test("the downloaded file merges into the labels file with flowcheck judge label --import, checked against the run it came from", async () => {
    const saved = join(dir.path, "merged-download.json");
    await downloadReportLabels(
      browser,
      page,
      [{ conversation: "booking.weekend", turn: "greeting", right: false, note: "too curt" }],
      saved,
    );
    const labelsFile = join(dir.path, "scenarios", "judge-labels.json");
    const merged = await runFlowcheck(["judge", "label", results, "--import", saved, "--labels", labelsFile]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /1 added, 0 replaced, 0 there already, 0 set aside \(1 in the file\)/);
    const [label] = parseJudgeLabels(readFileSync(labelsFile, "utf8"), labelsFile);
    assert.equal(label?.caseLabel, "weekend");
    assert.equal(label?.human, "fail");
  });
});
