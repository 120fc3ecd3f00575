import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { discoverScenarios } from "../../../src/testing/index.ts";
import { discoverSelected } from "../../../src/testing/scenario/scenario-discovery.ts";
import { tempDir } from "../../support/temp-path.ts";

let dir: { path: string; remove(): void };
const at = (path: string) => join(dir.path, path);

function write(path: string, content: unknown): void {
  mkdirSync(join(at(path), ".."), { recursive: true });
  writeFileSync(at(path), typeof content === "string" ? content : JSON.stringify(content));
}

before(async () => {
  dir = await tempDir("scenario-discovery");
  write("b.scenario.json", { flowName: "BasicFlow", turns: [] });
  write("a.scenario.json", "not even JSON");
  write("team/deep/c.scenario.json", { flowName: "HotelFlow", turns: [] });
  write("team/forgot-suffix.json", { flowName: "HotelFlow", turns: [] });
  write("team/turns-only.scenario.JSON.json", { turns: [] });
  write("team/user-only.json", { user: { persona: "A guest", goal: "Book a room" } });
  write("team/rates.json", { rates: [1, 2] });
  write("team/list.json", [{ flowName: "BasicFlow" }]);
  write("scenario.schema.json", { type: "object", properties: { flowName: {}, turns: {} } });
  write("b.cassette.json", { flowName: "BasicFlow", turns: [] });
  write(".hidden/x.scenario.json", { flowName: "BasicFlow", turns: [] });
  write("node_modules/y.scenario.json", { flowName: "BasicFlow", turns: [] });
});

after(() => dir.remove());

test("every *.scenario.json is found at any depth, sorted, whether or not it parses", () => {
  assert.deepEqual(discoverScenarios(dir.path).files, [
    at("a.scenario.json"),
    at("b.scenario.json"),
    at("team/deep/c.scenario.json"),
  ]);
});

test("a JSON object with flowName, turns or a simulated user under another name is reported with the rename; data, the schema and cassettes are not", () => {
  assert.deepEqual(discoverScenarios(dir.path).misnamed, [
    { file: at("team/forgot-suffix.json"), rename: at("team/forgot-suffix.scenario.json"), flowName: "HotelFlow" },
    { file: at("team/turns-only.scenario.JSON.json"), rename: at("team/turns-only.scenario.JSON.scenario.json") },
    { file: at("team/user-only.json"), rename: at("team/user-only.scenario.json") },
  ]);
});

test("every other JSON file is listed with what it is, so none is passed over silently: the schema, cassettes, data", () => {
  assert.deepEqual(discoverScenarios(dir.path).others, [
    { file: at("b.cassette.json"), why: "a cassette, replayed with the scenario of its name" },
    { file: at("scenario.schema.json"), why: "the schema of scenario files, not a scenario" },
    { file: at("team/list.json"), why: "JSON with no flowName, turns or user: data, not a scenario" },
    { file: at("team/rates.json"), why: "JSON with no flowName, turns or user: data, not a scenario" },
  ]);
});

test("a folder that does not exist has no scenarios", () => {
  assert.deepEqual(discoverScenarios(at("absent")), { files: [], misnamed: [], others: [], missing: [] });
});

test("selected paths: a folder is discovered whole, a file taken as it is, a misnamed file reported, a missing one named", () => {
  const found = discoverSelected([at("team"), at("b.scenario.json"), at("team/rates.json"), at("nowhere")]);
  assert.deepEqual(found.files, [at("b.scenario.json"), at("team/deep/c.scenario.json")]);
  assert.deepEqual(
    found.misnamed.map((entry) => entry.file),
    [
      at("team/forgot-suffix.json"),
      at("team/turns-only.scenario.JSON.json"),
      at("team/user-only.json"),
      at("team/rates.json"),
    ],
  );
  assert.deepEqual(found.missing, [at("nowhere")]);
});
