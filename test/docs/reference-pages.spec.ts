import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { headingsOf } from "../support/markdown.ts";

// The reference is a page per subject under docs/reference/, each short enough to read through and
// each with its own contents; docs/reference.md is the contents of them all.

const ROOT = resolve(import.meta.dirname, "..", "..");
const PAGES = readdirSync(join(ROOT, "docs", "reference"))
  .filter((name) => name.endsWith(".md"))
  .sort()
  .map((name) => join("docs", "reference", name));
const MOST_BYTES = 40 * 1024;

test("every page of the reference is under 40 KB", () => {
  assert.ok(PAGES.length >= 8, `found only ${PAGES.join(", ")}`);
  const large = PAGES.map((page) => ({ page, size: statSync(join(ROOT, page)).size }))
    .filter(({ size }) => size >= MOST_BYTES)
    .map(({ page, size }) => `${page} is ${size} bytes: split it, or move a section to another page`);
  assert.deepEqual(large, []);
});

/** What is wrong with the opening of a page: its title, a line saying what it covers, and its contents. */
function openingProblems(text: string): string[] {
  const lines = text.split("\n");
  if (!lines[0]?.startsWith("# ")) return ["it does not open with its title, `# …`"];
  if (lines[1] !== "" || !/^[^#\s-]/.test(lines[2] ?? "") || lines[3] !== "")
    return ["its title is not followed by one line saying what the page covers, between blank lines"];
  const contents: string[] = [];
  for (const line of lines.slice(4)) {
    const item = /^\s*- \[[^\]]+\]\(#([^)\s]+)\)$/.exec(line);
    if (!item) break;
    contents.push(item[1]!);
  }
  const sections = headingsOf(text)
    .filter((heading) => heading.level === 2 || heading.level === 3)
    .map((heading) => heading.slug);
  if (contents.length === 0) return ["no contents list (`- [Section](#section)`, one a line) after that line"];
  return [
    ...contents
      .filter((slug) => !sections.includes(slug))
      .map((slug) => `its contents link #${slug}, no section of it`),
    ...sections.filter((slug) => !contents.includes(slug)).map((slug) => `its contents leave out #${slug}`),
  ];
}

test("every page of the reference opens with its title, what it covers, and contents linking each of its sections", () => {
  const problems = PAGES.flatMap((page) =>
    openingProblems(readFileSync(join(ROOT, page), "utf8")).map((problem) => `${page}: ${problem}`),
  );
  assert.deepEqual(problems, []);
});

test("docs/reference.md links to every page of the reference", () => {
  const contents = readFileSync(join(ROOT, "docs", "reference.md"), "utf8");
  const linked = new Set([...contents.matchAll(/\]\((reference\/[\w-]+\.md)[#)]/g)].map((match) => `docs/${match[1]}`));
  assert.deepEqual(
    PAGES.filter((page) => !linked.has(page)),
    [],
  );
});
