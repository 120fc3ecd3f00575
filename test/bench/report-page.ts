// The report phase of npm run bench: how long the HTML page of a 2000-turn run takes to reach
// DOMContentLoaded in headless Chromium, opened from its file. The run's conversations are a real
// fixture run's (test/support/report-fixture-run.ts), one failing, repeated under new names until
// they hold 2000 turns, so each turn carries the checks and state changes a real one does.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderReport } from "../../src/testing/report/html/render-report.ts";
import { totalsOf } from "../../src/testing/report/merge-run-results.ts";
import type { ConversationResult, RunResults } from "../../src/testing/report/run-results.ts";
import { HeadlessChromium, NO_CHROMIUM } from "../support/headless-chromium.ts";
import { runReportFixture } from "../support/report-fixture-run.ts";
import type { Spread } from "./startup.ts";

export const REPORT_TURNS = 2000;
/** Loads timed, each in a fresh browser context, after one that is not (the browser's own start-up). */
const LOADS = 5;

export interface ReportPageResult {
  turns: number;
  conversations: number;
  bytes: number;
  renderMillis: number;
  domContentLoadedMillis: Spread;
}

function grown(results: RunResults, turns: number): RunResults {
  const conversations: ConversationResult[] = [];
  for (let copy = 0; conversations.reduce((sum, each) => sum + each.turns.length, 0) < turns; copy++) {
    for (const conversation of results.conversations)
      conversations.push({ ...conversation, id: `${conversation.id}~${copy}`, name: `${conversation.name} ${copy}` });
  }
  return { ...results, conversations, totals: totalsOf(conversations) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Renders a 2000-turn run's page into `dir` and times it to DOMContentLoaded; undefined, saying why, without a browser. */
export async function measureReportPage(
  dir: string,
  log: (text: string) => void,
): Promise<ReportPageResult | undefined> {
  if (NO_CHROMIUM) {
    log(`report: skipped, ${NO_CHROMIUM}`);
    return undefined;
  }
  const run = await runReportFixture(dir, { JUDGE: "off" });
  if (run.code !== 1)
    throw new Error(`bench: the report's fixture run should fail one scenario; it exited ${run.code}:\n${run.stderr}`);
  const results = grown(
    JSON.parse(readFileSync(join(dir, "test", ".tmp", "run-results.json"), "utf8")) as RunResults,
    REPORT_TURNS,
  );
  const started = performance.now();
  const page = renderReport(results);
  const renderMillis = performance.now() - started;
  const file = join(dir, "report-2000.html");
  writeFileSync(file, page);
  const browser = await HeadlessChromium.launch();
  try {
    const times: number[] = [];
    for (let load = 0; load <= LOADS; load++) {
      const opened = await browser.open(file);
      if (load > 0) times.push(await opened.domContentLoaded());
      await opened.page.context().close();
    }
    return {
      turns: results.totals.turns.total,
      conversations: results.conversations.length,
      bytes: statSync(file).size,
      renderMillis,
      domContentLoadedMillis: { min: Math.min(...times), median: median(times), max: Math.max(...times) },
    };
  } finally {
    await browser.close();
  }
}
