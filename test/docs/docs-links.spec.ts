import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { headingsOf, proseLines } from "../support/markdown.ts";

// The README is the guide and docs/ holds the rest, the reference's pages in docs/reference/: every
// link between them must land on a file and, with a #fragment, on one of its headings.

const ROOT = resolve(import.meta.dirname, "..", "..");
const markdownIn = (folder: string) =>
  readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(folder, name));
const GUIDES = markdownIn("docs");
const DOCUMENTS = ["README.md", ...GUIDES, ...markdownIn(join("docs", "reference"))];

/** Each relative link of a Markdown file, outside code: `[text](target)`. */
function relativeLinks(text: string): { target: string; line: number }[] {
  return proseLines(text).flatMap((line, index) =>
    [...line.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => ({ target: match[1]!, line: index + 1 }))
      .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target)),
  );
}

test("every relative link in README.md and docs/ reaches a file and, with a #fragment, one of its headings", () => {
  const broken: string[] = [];
  for (const document of DOCUMENTS) {
    for (const { target, line } of relativeLinks(readFileSync(join(ROOT, document), "utf8"))) {
      const [path, fragment] = target.split("#", 2) as [string, string | undefined];
      const file = path === "" ? join(ROOT, document) : resolve(ROOT, dirname(document), path);
      const at = `${document}:${line}: ${target}`;
      if (relative(ROOT, file).startsWith("..")) broken.push(`${at} leaves the repository`);
      else if (!existsSync(file)) broken.push(`${at}: no file ${relative(ROOT, file)}`);
      else if (fragment !== undefined) {
        const anchors =
          statSync(file).isFile() && file.endsWith(".md")
            ? headingsOf(readFileSync(file, "utf8")).map((heading) => heading.slug)
            : [];
        if (!anchors.includes(fragment)) broken.push(`${at}: ${relative(ROOT, file)} has no heading #${fragment}`);
      }
    }
  }
  assert.ok(DOCUMENTS.length >= 12, `found only ${DOCUMENTS.join(", ")}`);
  assert.deepEqual(broken, []);
});

test("README.md links to every file in docs/", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const linked = new Set(relativeLinks(readme).map(({ target }) => target.split("#")[0]));
  assert.deepEqual(
    GUIDES.filter((document) => !linked.has(document)),
    [],
  );
});

test("the README stays a guide: under 15 KB", () => {
  const size = statSync(join(ROOT, "README.md")).size;
  assert.ok(size < 15 * 1024, `README.md is ${size} bytes; move reference material to docs/`);
});

test("the README gives the two commands CI and a new user run, as printed", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  assert.ok(
    readme.includes(
      "```sh\nnpm ci && npm run test:flows   # the flow suites: scripted model, SQLite, no network, no API key\n" +
        "npm test                       # typecheck + every spec (fixture projects installed once)\n```\n",
    ),
    "README.md no longer prints the block `npm ci && npm run test:flows` / `npm test`",
  );
});

test("README.md and docs/ name no absolute path of a machine", () => {
  const found = DOCUMENTS.flatMap((document) =>
    readFileSync(join(ROOT, document), "utf8")
      .split("\n")
      .flatMap((line, index) =>
        /(^|[\s`("'=])\/(work|tmp|home|Users|root|var\/folders)\//.test(line)
          ? [`${document}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
  assert.deepEqual(found, []);
});
