import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { jsonClient } from "../../support/json-client.ts";
import { ledgerFlows } from "../../support/ledger-flow.ts";
import { playScenarioFile } from "../../support/play-scenario-file.ts";
import { tempDir } from "../../support/temp-path.ts";
import { startTestServer } from "../../support/test-server.ts";

// What a user types reaches a flow's tool exactly as sent, through every layer in between: the
// scenario file, the runner's client, node:http, the request parser, the scripted model's tool
// call, the tool, and back out of the SQLite store. The JSON escapes \u0000 and \ud800 are how such
// text travels: JSON.stringify writes a lone surrogate as its escape (well-formed JSON.stringify).
// A body whose bytes are not UTF-8 (a surrogate written as the bytes ED A0 80) is refused as
// invalid_json (test/http/bad-input.spec.ts): decoded, it would arrive as U+FFFD, a character nobody sent.

/** NUL, TAB, ESC, DEL, NEL (C1), U+2028, a lone high and a lone low surrogate, an emoji, an accent. */
const MESSAGE = "a\u0000b\tc\u001bd\u007fe\u0085f\u2028g\uD800h\uDFFFi 😀 é";

let dir: Awaited<ReturnType<typeof tempDir>>;

before(async () => {
  dir = await tempDir("message-text");
});

after(() => dir.remove());

test("a message with control characters and lone surrogates reaches the tool as sent over HTTP, and the store keeps it", async () => {
  const server = await startTestServer({ flows: ledgerFlows, env: { FLOW_MODEL: "scripted" } });
  const client = jsonClient(server.url);
  try {
    const answer = await client.post("/ai/chat", { flow: "LedgerFlow", message: MESSAGE });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body["response"], "Added line 1.");
    const document = await server.app.engine.fetchAll(String(answer.body["session"]));
    assert.deepEqual(
      document?.steps["LedgerStep"],
      { lines: [MESSAGE] },
      "the tool saved the message as sent (LedgerFlow keeps it unchecked)",
    );
    assert.equal(document.memory["flow"]?.[0]?.content, MESSAGE);
  } finally {
    client.close();
    await server.close();
  }
});

/** A one-turn LedgerFlow scenario whose input is MESSAGE and whose expectations name `expected`. */
function writeScenario(name: string, expected: string): string {
  const file = join(dir.path, `${name}.scenario.json`);
  const turn = {
    label: "control characters and lone surrogates arrive as written",
    input: MESSAGE,
    expectedActiveStep: "LedgerStep",
    expectState: { LedgerStep: { lines: [expected] } },
  };
  writeFileSync(
    file,
    JSON.stringify(
      {
        flowName: "LedgerFlow",
        turns: [turn],
        finalMemory: { flow: [{ role: "user", content: expected }, { role: "assistant" }] },
      },
      null,
      2,
    ),
  );
  return file;
}

test("a scenario's input with \\u0000 and \\ud800 escapes reaches the tool as written, through the runner", async () => {
  const file = writeScenario("as-written", MESSAGE);
  assert.match(JSON.stringify(MESSAGE), /\\u0000.*\\ud800.*\\udfff/s, "the file holds the escapes");
  const played = await playScenarioFile(file, ledgerFlows, dir.path, { FLOW_MODEL: "scripted" });
  assert.equal(played.outcome, "passed", played.failure);
});

test("the same scenario expecting the lone surrogates replaced by U+FFFD fails: the match is exact, so mangling would show", async () => {
  const file = writeScenario("replaced", MESSAGE.replace(/[\uD800-\uDFFF]/gu, "\uFFFD"));
  const played = await playScenarioFile(file, ledgerFlows, dir.path, { FLOW_MODEL: "scripted" });
  assert.equal(played.outcome, "failed");
  assert.match(played.failure ?? "", /steps\.LedgerStep\.lines\[0\]: expected .*, found .*\\ud800/s);
});
