import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import { scriptedText } from "../../../src/testing/index.ts";
import { loadSeamScript } from "../../../src/testing/seam/load-seam-script.ts";
import type { SeamRequest } from "../../../src/testing/seam/seam-request.ts";
import { scriptedSource } from "../../../src/testing/seam/scripted-source.ts";
import { seamCall, user } from "../../support/seam-call-builder.ts";
import { tempDir } from "../../support/temp-path.ts";

const CALL = seamCall([user("Do you have a room for   two nights in May?")], {
  system: "You book hotel rooms.\n\nAlways answer in English.",
});
const REQUEST: SeamRequest = {
  ...CALL.request,
  context: { target: "desk", flow: "booking", model: "gpt-test", api: "responses" },
};

test("the scripted source answers with the script's reply for the request, context included", async () => {
  const source = scriptedSource(({ context, latest }) =>
    scriptedText(`${context.api} ${context.target}: ${latest?.content}`),
  );
  const { reply } = await source(REQUEST, CALL);
  assert.equal(reply.content, "responses desk: Do you have a room for   two nights in May?");
});

test("a request no script answers throws script_unmatched quoting the system prompt and the latest message, and what to do", async () => {
  const source = scriptedSource(() => undefined, "test/desk-model.ts");
  await assert.rejects(source(REQUEST, CALL), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "script_unmatched"));
    assert.equal(
      error.message,
      "The scripted model of target desk has no answer for a responses call of flow booking (model gpt-test). " +
        'System prompt: "You book hotel rooms. Always answer in English.". ' +
        'Latest message: user "Do you have a room for two nights in May?". ' +
        "Add a branch for this prompt and message to test/desk-model.ts, or run it with FLOW_MODEL=live.",
    );
    return true;
  });
});

test("a scripts module, .ts or .mjs, is loaded as its default export", async (t) => {
  const dir = await tempDir("seam-script");
  t.after(dir.remove);
  const typed = join(dir.path, "desk-model.ts");
  writeFileSync(
    typed,
    [
      "interface Asked { latest?: { role: string; content: string } }",
      "export default function desk({ latest }: Asked) {",
      '  return latest?.role === "user" ? { content: `typed: ${latest.content}`, toolCalls: [] } : undefined;',
      "}",
      "",
    ].join("\n"),
  );
  const plain = join(dir.path, "desk-model.mjs");
  writeFileSync(plain, 'export default () => ({ content: "plain", toolCalls: [] });\n');
  assert.equal((await loadSeamScript(typed))(REQUEST)?.content, "typed: Do you have a room for   two nights in May?");
  assert.equal((await loadSeamScript(plain))(REQUEST)?.content, "plain");
});

test("a scripts module whose default export is not a function is refused, naming the file and what it exports", async (t) => {
  const dir = await tempDir("seam-script");
  t.after(dir.remove);
  const named = join(dir.path, "named.mjs");
  writeFileSync(named, "export const desk = () => undefined;\nexport const hotel = 1;\n");
  const object = join(dir.path, "object.mjs");
  writeFileSync(object, "export default { desk() {} };\n");
  await assert.rejects(loadSeamScript(named, "model.scripts of target desk"), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "target_config_invalid"));
    assert.match(
      error.message,
      /^The scripts module .*named\.mjs \(model\.scripts of target desk\) exports no default export \(only desk, hotel\); its default export must be the script/,
    );
    return true;
  });
  await assert.rejects(
    loadSeamScript(object),
    /object\.mjs \(model\.scripts\) exports a default export of type object;/,
  );
});

test("a scripts module that cannot be imported is refused, naming the file and why", async (t) => {
  const dir = await tempDir("seam-script");
  t.after(dir.remove);
  const missing = join(dir.path, "missing.ts");
  await assert.rejects(loadSeamScript(missing), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "target_config_invalid"));
    assert.ok(
      error.message.startsWith(`The scripts module ${missing} (model.scripts) could not be imported: `),
      error.message,
    );
    return true;
  });
  const broken = join(dir.path, "broken.mjs");
  writeFileSync(broken, "export default function (\n");
  await assert.rejects(loadSeamScript(broken), /broken\.mjs \(model\.scripts\) could not be imported: SyntaxError: /);
});
