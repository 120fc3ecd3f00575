import assert from "node:assert/strict";
import http from "node:http";
import type { LookupFunction } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import {
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
} from "../../src/engine/index.ts";
import { isFlowcheckError } from "../../src/errors.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { startFakeOpenAI } from "../support/fake-openai-server.ts";
import { tempDir } from "../support/temp-path.ts";

// The lookup fails before any packet could leave, so even a broken guard sends nothing anywhere.
const failingLookup = ((_host: string, _options: unknown, callback: (error: Error) => void) =>
  callback(new Error("lookup reached"))) as unknown as LookupFunction;

class FetchingStep extends Step {
  systemPrompt(): string {
    return "Call fetch_rates.";
  }

  @tool({
    name: "fetch_rates",
    description: "Reaches a remote rates service, and hides any failure.",
    parameters: { type: "object", properties: {} },
  })
  async fetchRates() {
    const outcome = await new Promise<string>((resolve) => {
      const req = http.get({ host: "rates.flowcheck.invalid", port: 80, path: "/", lookup: failingLookup }, () =>
        resolve("answered"),
      );
      req.on("error", (error) => resolve(`offline: ${error.message}`));
    });
    return stay(`rates ${outcome}`);
  }
}

const FetchingFlow = defineFlow({
  name: "FetchingFlow",
  description: "Reaches the network from a tool.",
  steps: [FetchingStep],
});
const entry: FlowEntry = {
  flow: FetchingFlow,
  scripts: {
    FetchingFlow: ({ latest }) =>
      latest?.role === "user"
        ? scriptedToolCalls([{ name: "fetch_rates", args: {} }])
        : scriptedText(latest?.content ?? "done"),
  },
};

test("a scripted turn that reaches a non-loopback host fails with network_blocked even when the tool swallows the error", async () => {
  const dir = await tempDir("network-blocked");
  const app = await createApp({
    flows: [entry],
    config: loadConfig({}),
    store: new SqliteSessionStore(join(dir.path, "s.sqlite")),
    log: () => undefined,
  });
  try {
    await assert.rejects(
      app.engine.chat({ flow: "FetchingFlow", message: "rates please" }),
      (error) =>
        isFlowcheckError(error, "network_blocked") &&
        error.message.includes("rates.flowcheck.invalid:80") &&
        error.status === 502,
    );
  } finally {
    await app.close();
    dir.remove();
  }
});

test("a live app's turn beside an open scripted app is not the scripted app's to guard: its tool reaches the network as it would alone", async () => {
  const dir = await tempDir("network-blocked");
  const fake = await startFakeOpenAI(Object.values(entry.scripts!));
  const open = (name: string, env: Record<string, string>) =>
    createApp({
      flows: [entry],
      config: loadConfig(env),
      store: new SqliteSessionStore(join(dir.path, `${name}.sqlite`)),
      log: () => undefined,
    });
  const scripted = await open("scripted", {});
  try {
    const live = await open("live", {
      FLOW_MODEL: "live",
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_MAX_RETRIES: "0",
    });
    try {
      // The failing lookup is as far as the connection gets: the tool saw the network, not the guard.
      const outcome = await live.engine.chat({ flow: "FetchingFlow", message: "rates please" });
      assert.equal(outcome.response, "rates offline: lookup reached");
    } finally {
      await live.close();
    }
    await assert.rejects(scripted.engine.chat({ flow: "FetchingFlow", message: "rates please" }), (error) =>
      isFlowcheckError(error, "network_blocked"),
    );
  } finally {
    await scripted.close();
    await fake.close();
    dir.remove();
  }
});
