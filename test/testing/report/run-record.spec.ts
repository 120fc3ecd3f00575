import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { RunRecord } from "../../../src/testing/report/run-record.ts";
import type { RunRecordLine } from "../../../src/testing/report/run-results.ts";

test("a run owns the suites that write to its artifacts folder, however the path is spelt, and no other", () => {
  const record = new RunRecord({ artifactsDir: "test/.tmp" });
  assert.equal(record.owns("test/.tmp"), true);
  assert.equal(record.owns(join(process.cwd(), "test", ".tmp")), true);
  assert.equal(record.owns("test/.tmp/../.tmp"), true);
  assert.equal(record.owns("test/.tmp/fixture-run"), false);
  assert.equal(record.owns("/tmp/elsewhere"), false);
});

test("closing a run writes each conversation still open as far as it went, once, and keeps those that settled out", () => {
  const record = new RunRecord({ artifactsDir: "test/.tmp" });
  const proof: RunRecordLine = { projectProof: { point: "12", key: "typecheck" } };
  record.add(proof);
  let closings = 0;
  const open = {
    closing: (): RunRecordLine => (closings++, { specNotLoaded: { file: "open.spec.ts", message: "cut short" } }),
  };
  const settled = { closing: (): RunRecordLine => assert.fail("a settled conversation is not written again") };
  record.keepOpen(open);
  record.keepOpen(settled).settle();
  assert.deepEqual(record.close(), [proof, { specNotLoaded: { file: "open.spec.ts", message: "cut short" } }]);
  assert.equal(record.close().length, 2, "a second close adds nothing");
  assert.equal(closings, 1);
});
