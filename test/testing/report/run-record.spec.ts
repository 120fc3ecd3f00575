import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { RunRecord } from "../../../src/testing/report/run-record.ts";
import type { RunEvent } from "../../../src/testing/report/run-event.ts";

test("a run owns the suites that write to its artifacts folder, however the path is spelt, and no other", () => {
  const record = new RunRecord({ artifactsDir: "test/.tmp" });
  assert.equal(record.owns("test/.tmp"), true);
  assert.equal(record.owns(join(process.cwd(), "test", ".tmp")), true);
  assert.equal(record.owns("test/.tmp/../.tmp"), true);
  assert.equal(record.owns("test/.tmp/fixture-run"), false);
  assert.equal(record.owns("/tmp/elsewhere"), false);
});

test("closing a run tells the end of each conversation still open, once, and not of those that settled", () => {
  const record = new RunRecord({ artifactsDir: "test/.tmp" });
  record.emit({ type: "proof", data: { point: "12", key: "typecheck" } });
  let closings = 0;
  const cutShort: RunEvent = { type: "spec:not-loaded", data: { file: "open.spec.ts", message: "cut short" } };
  const open = { closing: (): RunEvent => (closings++, cutShort) };
  const settled = { closing: (): RunEvent => assert.fail("a settled conversation is not told again") };
  record.keepOpen(open);
  record.keepOpen(settled).settle();
  record.close();
  record.close();
  assert.equal(closings, 1, "a second close tells nothing");
  const results = record.results();
  assert.deepEqual(results.projectProofs, [{ point: "12", key: "typecheck" }]);
  assert.deepEqual(results.specsNotLoaded, [{ file: "open.spec.ts", message: "cut short" }]);
});

test("every reader of a run is handed every event from when it asked, each at its own pace, until the run ends", async () => {
  const record = new RunRecord({ artifactsDir: "test/.tmp" });
  const fast = record.reader();
  const slow = record.reader();
  const proof = (key: string): RunEvent => ({ type: "proof", data: { point: "10", key } });
  record.emit(proof("v1"));
  record.emit(proof("v2"));
  const early = (await fast.next()).value;
  record.end({ endedAt: "2026-01-01T00:00:00.000Z", passed: true });
  const read = async (events: AsyncIterable<RunEvent>) => {
    const types: string[] = [];
    for await (const event of events) types.push(event.type === "proof" ? event.data.key : event.type);
    return types;
  };
  assert.deepEqual(early, proof("v1"));
  assert.deepEqual(await read(fast), ["v2", "run:end"]);
  assert.deepEqual(await read(slow), ["v1", "v2", "run:end"]);
  assert.deepEqual(await read(record.reader()), [], "a reader asking after the end is handed nothing");
});
