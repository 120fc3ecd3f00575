import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SESSION_DOCUMENT_VERSION } from "../../../src/engine/session-document.ts";
import { FlowcheckError } from "../../../src/errors.ts";
import { MIGRATIONS, migrateSession } from "../../../src/store/migrations/migrate-session.ts";
import type { StoredSession } from "../../../src/store/stored-session.ts";
import { noteProjectProof } from "../../support/project-proof.ts";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "sessions");

function fixture(version: number): StoredSession {
  return (JSON.parse(readFileSync(join(FIXTURES, `v${version}.json`), "utf8")) as { stored: StoredSession }).stored;
}

function unreadable(stored: StoredSession): FlowcheckError {
  try {
    migrateSession(stored, "some-id", "the test store");
  } catch (error) {
    assert.ok(error instanceof FlowcheckError && error.code === "session_unreadable", String(error));
    return error;
  }
  assert.fail("the session was read");
}

test("every historical document version has a fixture, and every version below the current one has a migration", () => {
  const versions = readdirSync(FIXTURES)
    .map((name) => Number(/^v(\d+)\.json$/.exec(name)?.[1]))
    .sort((a, b) => a - b);
  assert.deepEqual(
    versions,
    Array.from({ length: SESSION_DOCUMENT_VERSION }, (_, i) => i + 1),
  );
  for (let version = 1; version < SESSION_DOCUMENT_VERSION; version++)
    assert.equal(typeof MIGRATIONS[version], "function", `no migration from ${version}`);
});

for (let version = 1; version <= SESSION_DOCUMENT_VERSION; version++) {
  test(`a version ${version} session reads as a current document with its memory by namespace and its log in order`, () => {
    const document = migrateSession(fixture(version), "2b1c6a4e-1f7d-4c35-9a4e-0c1a8b7d9e10", "the test store");
    assert.equal(document.version, SESSION_DOCUMENT_VERSION);
    assert.equal(document.flow.currentStep, "WeatherStep");
    assert.deepEqual(document.steps, { NameStep: { name: "John Wick" } });
    assert.deepEqual(
      document.memory["flow"]?.map((entry) => entry.content),
      ["John Doe", 'Sorry, "John Doe" looks like a placeholder. What is your real name?', "John Wick"],
    );
    assert.equal(document.memory["NameStep"]?.length, 5);
    assert.deepEqual(
      document.execution.map((entry) => entry.seq),
      [1, 2],
    );
    noteProjectProof("10", `v${version}`);
  });
}

test("a version 1 session becomes version 2 with its memory as it was: no hand-off is made up for the turns before", () => {
  const stored = fixture(1);
  const document = migrateSession(stored, "2b1c6a4e-1f7d-4c35-9a4e-0c1a8b7d9e10", "the test store");
  assert.equal(document.version, 2);
  const asStored: Record<string, unknown[]> = {};
  for (const { namespace, entry } of stored.memory) (asStored[namespace] ??= []).push(entry);
  assert.deepEqual(document.memory, asStored);
  assert.equal(
    Object.values(document.memory)
      .flat()
      .some((entry) => entry.role === "handoff"),
    false,
  );
});

test("a version 2 session keeps the hand-off in the memory of the step it entered", () => {
  const document = migrateSession(fixture(2), "2b1c6a4e-1f7d-4c35-9a4e-0c1a8b7d9e10", "the test store");
  assert.deepEqual(document.memory["WeatherStep"], [
    { role: "user", content: "John Wick" },
    { role: "handoff", from: "NameStep", content: "Saved the name John Wick." },
  ]);
});

test("a hand-off that does not name the step it came from is unreadable", () => {
  const stored = fixture(2);
  const memory = stored.memory.map((append) =>
    (append.entry as { role: string }).role === "handoff"
      ? { ...append, entry: { role: "handoff", content: "Saved the name John Wick." } }
      : append,
  );
  assert.match(
    unreadable({ ...stored, memory }).message,
    /\/memory\/WeatherStep\/1 must have required property 'from'/,
  );
});

test("a session of a newer version is unreadable, and the error keeps its flow for the reset", () => {
  const stored = fixture(1);
  const error = unreadable({ ...stored, head: { ...(stored.head as object), version: SESSION_DOCUMENT_VERSION + 1 } });
  assert.match(error.message, /it is version \d+, newer than this version's \d+/);
  assert.deepEqual(error.details, {
    flow: "BasicFlow",
    reason: `it is version ${SESSION_DOCUMENT_VERSION + 1}, newer than this version's ${SESSION_DOCUMENT_VERSION}`,
  });
});

test("a head that is not JSON, or a document of the wrong shape, is unreadable, naming what is wrong", () => {
  assert.match(unreadable({ ...fixture(1), head: "{not json" }).message, /its version is undefined/);
  const stored = fixture(1);
  const broken = unreadable({ ...stored, head: { ...(stored.head as object), flow: { name: "BasicFlow" } } });
  assert.match(broken.message, /it is not a session document: \/flow must have required property 'currentStep'/);
  assert.equal((broken.details as { flow?: string }).flow, "BasicFlow");
  assert.match(
    unreadable({ ...stored, memory: [{ namespace: "flow", entry: "garbled" }] }).message,
    /\/memory\/flow\/0 must be object/,
  );
});
