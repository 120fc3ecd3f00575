// npm run docs:screenshot (tsx test/tools/report-screenshot.ts): writes docs/report.png, the HTML
// run report of a fixture suite with one deliberately failing scenario, as headless Chromium shows
// it. Run it again whenever the page's look changes; the picture is never edited by hand.
import { join, resolve } from "node:path";
import { HeadlessChromium, NO_CHROMIUM } from "../support/headless-chromium.ts";
import { runReportFixture } from "../support/report-fixture-run.ts";
import { tempDir } from "../support/temp-path.ts";

const OUT = resolve(import.meta.dirname, "..", "..", "docs", "report.png");

if (NO_CHROMIUM) {
  console.error(`docs:screenshot: ${NO_CHROMIUM}.`);
  process.exit(1);
}
const dir = await tempDir("report-screenshot");
const browser = await HeadlessChromium.launch();
try {
  const run = await runReportFixture(dir.path, { JUDGE: "off" });
  if (run.code !== 1)
    throw new Error(`the fixture suite should fail one scenario; it exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  const { page } = await browser.open(join(dir.path, "test", ".tmp", "report.html"), { width: 1000, height: 1300 });
  await page.screenshot({ path: OUT });
  console.log(`docs:screenshot: wrote ${OUT}`);
} finally {
  await browser.close();
  dir.remove();
}
