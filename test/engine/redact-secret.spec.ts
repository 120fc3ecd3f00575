import assert from "node:assert/strict";
import { test } from "node:test";
import { redactSecret } from "../../src/engine/redact-secret.ts";

test("every occurrence of the key is replaced, and a placeholder too short to be a key is left alone", () => {
  assert.equal(redactSecret("bad key sk-abcdef123 (sk-abcdef123)", "sk-abcdef123"), "bad key [redacted] ([redacted])");
  assert.equal(redactSecret("the key k was refused", "k"), "the key k was refused");
  assert.equal(redactSecret("no key here", undefined), "no key here");
});
