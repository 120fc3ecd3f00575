import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { headingsOf, proseLines, slugOf } from "../support/markdown.ts";

// docs/reference.md was one long file before it became the contents of docs/reference/; links to
// its sections are in the wild (issues, bookmarks, other repositories). Each section's anchor stays
// on the contents page, on the line that links to where the section is now.

const ROOT = resolve(import.meta.dirname, "..", "..");
const CONTENTS = readFileSync(join(ROOT, "docs", "reference.md"), "utf8");

/** Every heading of docs/reference.md at 1d91695, the last commit where it was one file, after its title. */
const SECTIONS_OF_THE_ONE_FILE = [
  "Scenario files",
  "Scenario keys",
  "What a scenario's `env` may set",
  "Cases",
  "Simulated users",
  "`success` keys",
  "Turn keys",
  "Matching",
  "`finalExecution` entries",
  "`finalChildren` runs",
  "`expectToolCalls` calls",
  "`finalMemory` messages",
  "What a turn checks",
  "Where the app runs",
  "Targets",
  "Live runs, the judge and cassettes",
  "Where a secret may go",
  "Scenarios from conversations",
  "Transcripts and flow coverage",
  "Flow coverage",
  "Run results",
  "The closing summary",
  "The new-flow checklist",
  "Merging shards: `flowcheck merge`",
  "In GitHub Actions",
  "The run report: `flowcheck report`",
  "What changed since an older run",
  "Scenario strength",
  "Setting up a project: `flowcheck init`",
  "New flows",
  "Environment",
  "The HTTP API",
  "Locking the API",
  "`GET /ai/sessions/<id>`",
  "Idempotent turns",
  "Errors",
  "The session document",
  "The flow API",
  "`defineFlow<Types>(options)` → `FlowDefinition<Types>`",
  "`FlowTypes`: a flow's types, for its steps",
  "`Step<State, Types>`",
  "`@tool({ name, description, parameters })`",
  "Tool results",
  "`characterProblem(text, what, options)`",
  "Hand-offs",
  "`StepContext<State, Types>`",
  "`FlowEntry`",
  "The scripted model",
  "Flow suites",
  "`describeFlowScenarios(flow, options)`",
  "Repeats",
  "The `flowcheck` command",
  "`flowcheck test`",
  "The nightly job",
];

test("every section of the reference as one file keeps its anchor on docs/reference.md, on a line linking to its new place", () => {
  const lines = proseLines(CONTENTS);
  const problems: string[] = [];
  for (const title of SECTIONS_OF_THE_ONE_FILE) {
    const anchor = slugOf(title);
    const holding = lines.filter((line) => line.includes(`<a id="${anchor}"></a>`));
    if (holding.length !== 1) {
      problems.push(`#${anchor}: ${holding.length} anchors for "${title}"; keep one, on the line linking to its page`);
      continue;
    }
    const links = [...holding[0]!.matchAll(/\]\((reference\/[\w-]+\.md)#([^)\s]+)\)/g)];
    if (links.length !== 1) {
      problems.push(`#${anchor}: its line has ${links.length} links to a section of a page; it needs exactly one`);
      continue;
    }
    const [, page, fragment] = links[0]!;
    const file = join(ROOT, "docs", page!);
    const heading = existsSync(file)
      ? headingsOf(readFileSync(file, "utf8")).find((candidate) => candidate.slug === fragment)
      : undefined;
    if (heading?.title !== title)
      problems.push(`#${anchor}: links to ${page}#${fragment}, which is no heading "${title}"`);
  }
  assert.equal(SECTIONS_OF_THE_ONE_FILE.length, 54);
  assert.deepEqual(problems, []);
});

test("docs/reference.md keeps its title, and with it the anchor #flowcheck-reference", () => {
  assert.equal(headingsOf(CONTENTS)[0]?.slug, "flowcheck-reference");
});
