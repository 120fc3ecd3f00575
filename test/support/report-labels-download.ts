import type { HeadlessChromium } from "./headless-chromium.ts";

/** A label to click on the report's page: the turn (by its conversation's name and its label), right or wrong, and a note. */
export interface LabelClick {
  conversation: string;
  turn: string;
  right: boolean;
  note?: string;
}

/**
 * Opens the report `page` in `browser` (the network cut off), clicks each of `clicks` under its
 * judged turn (unfolding the conversation first when it is folded), downloads the labels and saves
 * them as `saveTo`: the file a person would merge with `flowcheck judge label --import`. Returns
 * the page's count line, the file name the page offers the download under (the one a browser saves
 * it as), and the requests it tried to make and its errors, which should be none.
 */
export async function downloadReportLabels(
  browser: HeadlessChromium,
  page: string,
  clicks: readonly LabelClick[],
  saveTo: string,
): Promise<{ counted: string; filename: string; requests: string[]; errors: string[] }> {
  const opened = await browser.open(page);
  const tab = opened.page;
  for (const click of clicks) {
    const conversation = tab.locator("details.conversation").filter({
      has: tab.locator(":scope > summary .name", { hasText: new RegExp(`^${escapeRegExp(click.conversation)}$`) }),
    });
    if ((await conversation.getAttribute("open")) === null) await conversation.locator(":scope > summary").click();
    const turn = conversation
      .locator("section.turn")
      .filter({ has: tab.locator("h4", { hasText: new RegExp(`\\d+\\. ${escapeRegExp(click.turn)}$`) }) });
    const box = turn.locator(".labelling");
    if (click.note !== undefined) await box.locator("[name=note]").fill(click.note);
    await box.locator(`button[data-human=${click.right ? "right" : "wrong"}]`).click();
  }
  const counted = (await tab.locator("#labelled").textContent()) ?? "";
  const [download] = await Promise.all([tab.waitForEvent("download"), tab.click("#download-labels")]);
  await download.saveAs(saveTo);
  await tab.context().close();
  return { counted, filename: download.suggestedFilename(), requests: opened.requests, errors: opened.errors };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
