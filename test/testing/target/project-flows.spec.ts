import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { after, before, test } from "node:test";
import { FlowcheckError, type ErrorCode } from "../../../src/errors.ts";
import { loadProjectFlows } from "../../../src/testing/target/project-flows.ts";
import { tempDir } from "../../support/temp-path.ts";

const FIXTURE_FLOWS = resolve(import.meta.dirname, "..", "..", "fixtures", "flows");

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("project-flows");
});
after(() => dir.remove());

let written = 0;
/** A project root whose flowcheck.config.json is `config` (as JSON, a text as is; none when undefined) and whose other files are `files`. */
function project(config: unknown, files: Record<string, string> = {}): string {
  const root = join(dir.path, `project-${++written}`);
  mkdirSync(root, { recursive: true });
  const text = typeof config === "string" ? config : JSON.stringify(config);
  if (config !== undefined) writeFileSync(join(root, "flowcheck.config.json"), text);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

/** A module exporting the fixture BasicFlow and ReminderFlow as registeredFlows. */
const FLOWS_MODULE =
  `import { basicFlowEntry } from ${JSON.stringify(join(FIXTURE_FLOWS, "basic", "basic-flow-entry.ts"))};\n` +
  `import { reminderFlowEntry } from ${JSON.stringify(join(FIXTURE_FLOWS, "reminder", "reminder-flow.ts"))};\n` +
  "export const registeredFlows = [basicFlowEntry, reminderFlowEntry];\n";

async function refusal(root: string, code: ErrorCode): Promise<FlowcheckError> {
  try {
    await loadProjectFlows(root);
  } catch (error) {
    assert.ok(error instanceof FlowcheckError, String(error));
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`${root}'s flows were loaded`);
}

const names = (flows: Awaited<ReturnType<typeof loadProjectFlows>>) => flows.map((entry) => entry.flow.name);

test("a project with no flowcheck.config.json, or one that names no flows, has none", async () => {
  assert.deepEqual(await loadProjectFlows(project(undefined)), []);
  assert.deepEqual(await loadProjectFlows(project({ targets: {} })), []);
});

test("the flows module is found relative to the config file's folder, or by an absolute path, and its registeredFlows returned", async () => {
  const nearby = project({ flows: "./src/flows.ts" }, { "src/flows.ts": FLOWS_MODULE });
  assert.deepEqual(names(await loadProjectFlows(nearby)), ["BasicFlow", "ReminderFlow"]);
  const absolute = project({ flows: join(nearby, "src", "flows.ts") });
  assert.deepEqual(names(await loadProjectFlows(absolute)), ["BasicFlow", "ReminderFlow"]);
});

test("the flows are read without the targets' ${VAR} references set, but the file must still match the schema", async () => {
  const target = {
    kind: "flowcheck",
    baseUrl: "${STAGING_URL}",
    headers: { Authorization: "Bearer ${STAGING_TOKEN}" },
  };
  const root = project({ targets: { staging: target }, flows: "./flows.ts" }, { "flows.ts": FLOWS_MODULE });
  assert.deepEqual(names(await loadProjectFlows(root)), ["BasicFlow", "ReminderFlow"]);
  const wrong = await refusal(project({ flows: 3 }), "target_config_invalid");
  assert.match(wrong.message, /flows/);
  await refusal(project("{ not json"), "target_config_invalid");
});

test("a flows module that does not exist is refused with the path as written, the path resolved and the config file", async () => {
  const root = project({ flows: "./src/flows/index.ts" });
  const error = await refusal(root, "flows_module_missing");
  assert.ok(error.message.includes(`"flows": "./src/flows/index.ts"`), error.message);
  assert.ok(error.message.includes(join(root, "src", "flows", "index.ts")), error.message);
  // The config file as messages show paths: from the working directory.
  assert.ok(error.message.startsWith(`${relative(process.cwd(), root)}/flowcheck.config.json names `), error.message);
});

test("a flows module that throws while loading is refused with its error as the cause", async () => {
  const root = project({ flows: "./flows.mjs" }, { "flows.mjs": 'throw new Error("the database is not there");\n' });
  const error = await refusal(root, "flows_module_failed");
  assert.match(error.message, /the database is not there/);
  assert.equal((error.cause as Error).message, "the database is not there");
});

test("a flows module without registeredFlows, or whose registeredFlows is not flow entries, is refused listing its exports", async () => {
  const none = project({ flows: "./flows.mjs" }, { "flows.mjs": "export const flows = [];\nexport default 1;\n" });
  const missing = await refusal(none, "flows_module_invalid");
  assert.match(missing.message, /exports no registeredFlows \(it exports default, flows\)/);
  const odd = project(
    { flows: "./flows.mjs" },
    { "flows.mjs": 'export const registeredFlows = [{ name: "BasicFlow" }];\n' },
  );
  const invalid = await refusal(odd, "flows_module_invalid");
  assert.match(
    invalid.message,
    /a registeredFlows that is not an array of flow entries \(it exports registeredFlows\)/,
  );
});
