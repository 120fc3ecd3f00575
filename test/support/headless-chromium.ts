import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** The installed Chromium: CHROMIUM_PATH, else /usr/bin/chromium, else `chromium` on the PATH; undefined when there is none. */
export function chromiumPath(): string | undefined {
  const candidates = [
    process.env["CHROMIUM_PATH"],
    "/usr/bin/chromium",
    ...(process.env["PATH"] ?? "")
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, "chromium")),
  ];
  return candidates.find((path) => {
    if (!path) return false;
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** node:test's skip reason for a browser test when no Chromium is installed, or false to run it. */
export const NO_CHROMIUM =
  chromiumPath() === undefined
    ? "no Chromium found (set CHROMIUM_PATH, or install Debian's chromium; .ci/run does)"
    : false;

export interface OpenedPage {
  page: Page;
  /** Every request the page tried to make other than the file itself, each refused. */
  requests: string[];
  /** The console's errors and the page's uncaught exceptions. */
  errors: string[];
  /** Milliseconds from navigation to DOMContentLoaded, as the page measured it. */
  domContentLoaded(): Promise<number>;
}

/**
 * A headless Chromium with the network cut off: only the page's own file: URL and data: URLs load,
 * and every other request is refused and counted. playwright-core gives it a fresh temporary
 * profile and removes it on close; each page gets a fresh context too.
 */
export class HeadlessChromium {
  readonly #browser: Browser;

  private constructor(browser: Browser) {
    this.#browser = browser;
  }

  static async launch(): Promise<HeadlessChromium> {
    const executablePath = chromiumPath();
    if (!executablePath) throw new Error(`${NO_CHROMIUM}`);
    const browser = await chromium.launch({
      executablePath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    return new HeadlessChromium(browser);
  }

  /** Opens `file` at `width`×`height` with JavaScript on or off, and waits for DOMContentLoaded. */
  async open(file: string, { javaScript = true, width = 1200, height = 900 } = {}): Promise<OpenedPage> {
    const context: BrowserContext = await this.#browser.newContext({
      javaScriptEnabled: javaScript,
      viewport: { width, height },
    });
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    await context.route("**/*", (route) => {
      const target = route.request().url();
      if (target === url || target.startsWith("data:")) return route.continue();
      requests.push(target);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url, { waitUntil: "domcontentloaded" });
    // A string, not a function: this project's types have no DOM library.
    const domContentLoaded = async () =>
      Number(await page.evaluate(`performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd`));
    return { page, requests, errors, domContentLoaded };
  }

  async close(): Promise<void> {
    await this.#browser.close();
  }
}
