import assert from "node:assert/strict";
import net from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/create-app.ts";
import { scriptedText, type FlowEntry } from "../src/engine/index.ts";
import { SqliteSessionStore } from "../src/store/sqlite/sqlite-session-store.ts";
import { basicFlowEntry, basicFlowScripts } from "./fixtures/flows/index.ts";
import { tempDir } from "./support/temp-path.ts";

test("two apps in one process keep their own models and can be closed in any order", async () => {
  const dir = await tempDir("create-app");
  const originalConnect = net.Socket.prototype.connect;
  // The same flow on other scripts: each app must answer from the scripts it was given.
  const echoing: FlowEntry = {
    flow: basicFlowEntry.flow,
    scripts: { ...basicFlowScripts, BasicFlow: ({ latest }) => scriptedText(`second app heard ${latest?.content}`) },
  };
  const open = (name: string, entry: FlowEntry) =>
    createApp({
      flows: [entry],
      config: loadConfig({}),
      store: new SqliteSessionStore(join(dir.path, `${name}.sqlite`)),
      log: () => undefined,
    });
  try {
    const first = await open("first", basicFlowEntry);
    const second = await open("second", echoing);
    assert.equal((await first.engine.chat({ flow: "BasicFlow", message: "John Wick" })).currentStep, "WeatherStep");
    assert.equal(
      (await second.engine.chat({ flow: "BasicFlow", message: "John Wick" })).response,
      "second app heard John Wick",
    );
    await first.close();
    const stillScripted = await second.engine.chat({ flow: "BasicFlow", message: "John Doe" });
    assert.equal(stillScripted.response, "second app heard John Doe");
    await second.close();
    assert.equal(net.Socket.prototype.connect, originalConnect);
  } finally {
    dir.remove();
  }
});
