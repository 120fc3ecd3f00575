import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import type { SessionDocument } from "../../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { storedInputs, storedReplies } from "../../../src/testing/capture/stored-replies.ts";
import { writeCapturedScenario } from "../../../src/testing/capture/write-captured-scenario.ts";
import { basicFlowEntry } from "../../fixtures/flows/index.ts";
import { holdConversation } from "../../support/hold-conversation.ts";
import { tempDir } from "../../support/temp-path.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let document: SessionDocument;

before(async () => {
  dir = await tempDir("capture-diverged");
  const sqlite = join(dir.path, "sessions.sqlite");
  const id = await holdConversation([basicFlowEntry], "BasicFlow", ["John Wick", "LA, NYC"], sqlite);
  const store = new SqliteSessionStore(sqlite);
  document = (await store.fetchAll(id))!;
  await store.close();
});
after(() => dir.remove());

/** Writes the held conversation as `name`, on replies changed by `change`, as a flow changed since would see them. */
function write(name: string, change: (queues: ReturnType<typeof storedReplies>) => void) {
  const queues = storedReplies(document);
  change(queues);
  return writeCapturedScenario(
    { dir: dir.path, name, force: false, cassette: true },
    {
      flowName: "BasicFlow",
      flows: [basicFlowEntry],
      config: loadConfig({ FLOW_MODEL: "replay" }),
      inputs: storedInputs(document),
    },
    { queues, source: "the test's session", description: "changed", env: {} },
  );
}

test("a step that asks its model more often than it did when the conversation was held is capture_diverged, naming the step, and nothing is written", async () => {
  await assert.rejects(
    write("more", (queues) => queues.get("BasicFlow/WeatherStep")!.pop()),
    {
      code: "capture_diverged",
      message: /BasicFlow\/WeatherStep asked its model once more than it did/,
    },
  );
  assert.equal(existsSync(join(dir.path, "more.scenario.json")), false);
  assert.equal(existsSync(join(dir.path, "more.cassette.json")), false);
});

test("replies the flow no longer asks for are capture_diverged, naming the step and how many, and nothing is written", async () => {
  await assert.rejects(
    write("fewer", (queues) =>
      queues.get("BasicFlow/AddressStep")!.push({ content: "never asked for", toolCalls: [] }),
    ),
    {
      code: "capture_diverged",
      message: /replies never asked for: BasicFlow\/AddressStep \(1\)/,
    },
  );
  assert.equal(existsSync(join(dir.path, "fewer.scenario.json")), false);
});

test("a scenario name that is not lower-case letters, digits and dashes is refused with scenario_name_invalid", async () => {
  await assert.rejects(
    write("Tea Check", () => {}),
    { code: "scenario_name_invalid", message: /"Tea Check" is not a scenario name/ },
  );
});
