import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { before, test } from "node:test";
import { promisify } from "node:util";

// The mistakes a typed flow must not compile with. The files under test/fixtures/type-errors/ are
// steps and flow-suite checks of the typed fixture GreetingFlow (test/fixtures/flows/typed/) with mistakes in them, each
// line that must fail marked `// error TS<code> <text in the message>`. They are outside the
// project `npm run typecheck` checks, and compiled here on their own, with the project's settings
// and the repository's `tsc`.

const ROOT = resolve(import.meta.dirname, "..", "..");
const FIXTURES = join(ROOT, "test", "fixtures", "type-errors");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const MARKER = /\/\/ error (TS\d+) (.+)$/;

interface Diagnostic {
  file: string;
  line: number;
  code: string;
  /** The first line and the indented lines under it: the whole explanation. */
  text: string;
}

interface Expected {
  file: string;
  line: number;
  code: string;
  fragment: string;
}

const run = promisify(execFile);

/** tsc's diagnostics (`file(line,col): error TS…: …` and the lines indented under it) for a project. */
async function compile(...args: string[]): Promise<{ code: number; diagnostics: Diagnostic[]; output: string }> {
  const { code, stdout } = await run(TSC, [...args, "--pretty", "false"], { cwd: ROOT }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  const diagnostics: Diagnostic[] = [];
  for (const line of stdout.split("\n")) {
    const head = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (head) diagnostics.push({ file: head[1]!, line: Number(head[2]), code: head[3]!, text: head[4]! });
    else if (line.startsWith(" ") && diagnostics.length) diagnostics.at(-1)!.text += `\n${line.trim()}`;
  }
  return { code, diagnostics, output: stdout };
}

function expectations(): Expected[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) => {
      const file = relative(ROOT, join(FIXTURES, name));
      return readFileSync(join(FIXTURES, name), "utf8")
        .split("\n")
        .flatMap((text, index) => {
          const marker = MARKER.exec(text);
          return marker ? [{ file, line: index + 1, code: marker[1]!, fragment: marker[2]! }] : [];
        });
    });
}

let compiled: Awaited<ReturnType<typeof compile>>;
const expected = expectations();

before(async () => {
  compiled = await compile("--project", join(FIXTURES, "tsconfig.json"));
});

/** Asserts that every marked line of `file` fails with its code and text, and no other line does. */
function assertRefused(file: string): void {
  const path = `test/fixtures/type-errors/${file}`;
  const marked = expected.filter((entry) => entry.file === path);
  assert.ok(marked.length > 0, `${path} marks no line that must fail`);
  for (const entry of marked) {
    const found = compiled.diagnostics.find((diagnostic) => diagnostic.file === path && diagnostic.line === entry.line);
    assert.ok(
      found,
      `${path}:${entry.line} compiled, but must fail with ${entry.code} (${entry.fragment})\n${compiled.output}`,
    );
    assert.equal(found.code, entry.code, `${path}:${entry.line}: ${found.text}`);
    assert.ok(
      found.text.includes(entry.fragment),
      `${path}:${entry.line}: the message does not say ${entry.fragment}:\n${found.text}`,
    );
  }
  const unmarked = compiled.diagnostics.filter(
    (diagnostic) => diagnostic.file === path && !marked.some((entry) => entry.line === diagnostic.line),
  );
  assert.deepEqual(unmarked, [], `${path} fails on lines that are not marked`);
}

test("npm run typecheck's project leaves the type-error fixtures out, so it stays green", async () => {
  const listed = await run(TSC, ["--project", "tsconfig.contract.json", "--listFilesOnly"], { cwd: ROOT });
  const files = listed.stdout.split("\n").map((line) => relative(ROOT, line.trim()));
  assert.ok(files.includes("test/fixtures/flows/typed/greeting-flow.ts"), "the typed fixture flow itself is checked");
  assert.deepEqual(
    files.filter((file) => file.startsWith("test/fixtures/type-errors/")),
    [],
  );
});

test("the compiler refuses a misspelt step name in advance and in stateOf", () => assertRefused("step-name.ts"));

test("the compiler refuses a tool method whose arguments are not what its schema describes", () =>
  assertRefused("argument-type.ts"));

test("the compiler refuses a state key the step's state type lacks, and a write to another step's state", () =>
  assertRefused("state-key.ts"));

test("the compiler refuses a child's wrong input, a child that completes without its output, and a service the flow lacks", () =>
  assertRefused("child-and-services.ts"));

test("the compiler refuses a misspelt step in the checks of describeFlowScenarios(SomeFlow, …), and a state key the step lacks", () =>
  assertRefused("flow-checks.ts"));

test("the compiler finds nothing else wrong: the typed fixture flow and the engine compile clean", () => {
  assert.notEqual(compiled.code, 0, "the fixtures compiled without an error");
  const unexpected = compiled.diagnostics.filter(
    (diagnostic) => !expected.some((entry) => entry.file === diagnostic.file && entry.line === diagnostic.line),
  );
  assert.deepEqual(unexpected, []);
});
