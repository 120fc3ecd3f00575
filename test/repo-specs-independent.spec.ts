import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";

// A team adds its flows and scenario files next to the demo's and may delete the demo's: the specs
// of the engine, HTTP and tester must keep passing, so they use test/fixtures/ alone. test/flows/
// holds the demo flows' own specs; test/bench/ is not part of npm test.

const TEST_ROOT = import.meta.dirname;
const ROOT = resolve(TEST_ROOT, "..");
const NOT_SCANNED = new Set(["flows", "bench", ".tmp"].map((folder) => join(TEST_ROOT, folder)));
// It names the files the first-flow guide adds (src/flows/feedback/, scenarios/feedback-flow…), and
// writes them in a copy of the repository, never in this one.
const NAMES_THE_GUIDE = join(TEST_ROOT, "docs", "readme-example.spec.ts");
// It runs new:flow in a copy of the repository and checks the files it writes there (src/flows/kettle/,
// scenarios/kettle-flow…), with or without the demo flows in it.
const SCAFFOLDS_A_COPY = join(TEST_ROOT, "cli", "new-flow.spec.ts");
// It runs flowcheck test with no path in a project folder of its own, whose scenarios/ it writes.
const RUNS_A_PROJECT = join(TEST_ROOT, "cli", "test-command-default.spec.ts");
// It makes those copies: it unregisters the demo flows there and registers fixture flows in their place.
const MAKES_COPIES = join(TEST_ROOT, "support", "repository-copy.ts");
// It checks that the packed package holds neither the demo flows (dist/src/flows/) nor their registry.
const CHECKS_THE_PACKAGE = join(TEST_ROOT, "package", "package-install.spec.ts");
// They write projects of their own in temp folders, scenarios/ included: flowcheck init's, a team's
// with only the installed package (a LangGraph project's, the target guides' scenarios/booking/ and
// scenarios/returns/, the model seam guide's scenarios/booking/), projects whose flows module exports registeredFlows (of fixture flows),
// as a config's "flows" asks, and projects whose scenarios/ holds judge labels, their tape and the
// judge's calibration, for flowcheck judge label and calibrate and the runs that show the calibration
// (the judge guide's in a copy of the repository, whose scenarios/ holds a fixture scenario).
const WRITE_PROJECTS = [
  join(TEST_ROOT, "cli", "init-command.spec.ts"),
  join(TEST_ROOT, "package", "consumer-project.spec.ts"),
  join(TEST_ROOT, "docs", "target-guides.spec.ts"),
  join(TEST_ROOT, "docs", "model-seam-guide.spec.ts"),
  join(TEST_ROOT, "cli", "run-project-flows.spec.ts"),
  join(TEST_ROOT, "cli", "strength-command.spec.ts"),
  join(TEST_ROOT, "testing", "target", "project-flows.spec.ts"),
  join(TEST_ROOT, "cli", "scenario-from-results.spec.ts"),
  join(TEST_ROOT, "cli", "simulated-user-run.spec.ts"),
  join(TEST_ROOT, "cli", "github-annotations.spec.ts"),
  join(TEST_ROOT, "testing", "cassette", "auto-cassette.spec.ts"),
  join(TEST_ROOT, "cli", "test-command-watch.spec.ts"),
  join(TEST_ROOT, "support", "basic-flow-project.ts"),
  join(TEST_ROOT, "cli", "judge-calibrate.spec.ts"),
  join(TEST_ROOT, "cli", "judge-label-command.spec.ts"),
  join(TEST_ROOT, "cli", "run-judge-calibration.spec.ts"),
  join(TEST_ROOT, "testing", "report", "html", "report-labelling-browser.spec.ts"),
  join(TEST_ROOT, "docs", "judge-guide.spec.ts"),
];
const EXEMPT = new Set([
  import.meta.filename,
  ...WRITE_PROJECTS,
  NAMES_THE_GUIDE,
  SCAFFOLDS_A_COPY,
  RUNS_A_PROJECT,
  MAKES_COPIES,
  CHECKS_THE_PACKAGE,
]);

const DEPENDENCIES: readonly { what: string; pattern: RegExp }[] = [
  { what: "imports or names a path in src/flows/", pattern: /src\/flows\b|["'`]src["'`],\s*["'`]flows["'`]/ },
  { what: "uses demoFlows, the demo flows' registry", pattern: /\bdemoFlows\b/ },
  {
    what: "names a path in scenarios/ other than the schema",
    pattern:
      /(?<!fixtures\/)(?<![\w.-])scenarios\/(?!scenario\.schema\.json\b)|(?<!["'`]fixtures["'`],\s*)["'`]scenarios["'`](?!\s*,\s*["'`]scenario\.schema\.json["'`])/,
  },
  { what: "calls discoverScenarios() without a folder, which reads scenarios/", pattern: /\bdiscoverScenarios\(\s*\)/ },
  { what: "uses registeredFlows, which holds the flows a team registers", pattern: /\bregisteredFlows\b/ },
];

/** `text` without its comments, line by line: a comment may name what the code must not use. */
function codeOf(text: string): string[] {
  return text.split("\n").map((line) => {
    const trimmed = line.trimStart();
    if (trimmed.startsWith("//") || trimmed.startsWith("/*") || trimmed.startsWith("*")) return "";
    return line.replace(/\s\/\/\s.*$/, "");
  });
}

/** Each line of `text` that depends on the demo flows or the scenario files in scenarios/, as `line N: what`. */
function demoDependencies(text: string): string[] {
  return codeOf(text).flatMap((line, index) =>
    DEPENDENCIES.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `line ${index + 1}: ${what}`),
  );
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // A fixture project's installed packages (test/fixtures/langgraph-project/node_modules) are not ours.
    if (entry.isDirectory()) return NOT_SCANNED.has(path) || entry.name === "node_modules" ? [] : tsFilesUnder(path);
    return entry.name.endsWith(".ts") && !EXEMPT.has(path) ? [path] : [];
  });
}

test("no spec, support or fixture file outside test/flows/ imports the demo flows or reads a scenario file in scenarios/ other than the schema", () => {
  const files = tsFilesUnder(TEST_ROOT);
  assert.ok(files.length > 50, `only ${files.length} files were scanned`);
  const found = files.flatMap((file) =>
    demoDependencies(readFileSync(file, "utf8")).map((problem) => `${relative(ROOT, file)} ${problem}`),
  );
  assert.deepEqual(
    found,
    [],
    `These depend on the demo flows or the scenarios a team keeps in scenarios/, so adding, changing or deleting those would break them:\n- ${found.join("\n- ")}\n` +
      "Use the fixtures (test/fixtures/flows/, test/fixtures/scenarios/ by fixtureScenario()) instead; a test about the demo flows themselves belongs in test/flows/.",
  );
});

test("the scan names an import of the demo flows, the registries, paths into scenarios/ and a discoverScenarios() without a folder, and passes the fixtures and the schema", () => {
  const dependent = [
    'import { BasicFlow } from "../../src/flows/index.ts";',
    'const spec = `import { x } from ${JSON.stringify(join(ROOT, "src", "flows", "index.ts"))};`;',
    "const flows = demoFlows.map((entry) => entry.flow);",
    'const file = resolve(import.meta.dirname, "..", "..", "scenarios", "basic-flow.scenario.json");',
    'const file = "scenarios/basic-flow.scenario.json";',
    "const { files } = discoverScenarios();",
    "const flows = registeredFlows;",
  ].join("\n");
  assert.deepEqual(demoDependencies(dependent), [
    "line 1: imports or names a path in src/flows/",
    "line 2: imports or names a path in src/flows/",
    "line 3: uses demoFlows, the demo flows' registry",
    "line 4: names a path in scenarios/ other than the schema",
    "line 5: names a path in scenarios/ other than the schema",
    "line 6: calls discoverScenarios() without a folder, which reads scenarios/",
    "line 7: uses registeredFlows, which holds the flows a team registers",
  ]);
  const independent = [
    'import { BasicFlow } from "../fixtures/flows/index.ts";',
    'const schema = join(ROOT, "scenarios", "scenario.schema.json");',
    'const pointer = { $schema: "../../../scenarios/scenario.schema.json" };',
    'const file = join(import.meta.dirname, "..", "fixtures", "scenarios", "basic-flow.scenario.json");',
    "// The demo's scenarios/basic-flow.scenario.json and src/flows/ are named in a comment only.",
  ].join("\n");
  assert.deepEqual(demoDependencies(independent), []);
});
