import assert from "node:assert/strict";
import net from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/create-app.ts";
import { Model } from "../src/engine/index.ts";
import { SqliteSessionStore } from "../src/store/sqlite/sqlite-session-store.ts";
import { basicFlowEntry } from "./fixtures/flows/index.ts";
import { tempDir } from "./support/temp-path.ts";

test("two apps in one process keep their own models and can be closed in any order", async () => {
  const dir = await tempDir("create-app");
  const originalCreate = Model.prototype.createInstance;
  const originalConnect = net.Socket.prototype.connect;
  const open = (name: string) =>
    createApp({ flows: [basicFlowEntry], config: loadConfig({}), store: new SqliteSessionStore(join(dir.path, `${name}.sqlite`)), log: () => undefined });
  try {
    const first = await open("first");
    const second = await open("second");
    for (const app of [first, second]) {
      const outcome = await app.engine.chat({ flow: "BasicFlow", message: "John Wick" });
      assert.equal(outcome.currentStep, "WeatherStep");
    }
    await first.close();
    const stillScripted = await second.engine.chat({ flow: "BasicFlow", message: "John Doe" });
    assert.match(stillScripted.response, /placeholder/);
    await second.close();
    assert.equal(Model.prototype.createInstance, originalCreate);
    assert.equal(net.Socket.prototype.connect, originalConnect);
  } finally {
    dir.remove();
  }
});
