import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import {
  readBasicFlow,
  result,
  runSpec,
  tapResults,
  TURN_TESTS,
  writeScenario,
  writeSpec,
} from "../../support/child-run.ts";

// The provider's key goes to OPENAI_BASE_URL, as the run's environment names it, and nowhere else:
// a scenario file that names another base URL (or a key of its own) is refused before any turn, so
// neither the model nor the judge makes a call. docs/reference/environment.md, "Where a secret may go".

/** A server on 127.0.0.1 that records every request it gets, on any path, and answers none usefully. */
async function startTrap() {
  const seen: { url: string | undefined; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    req.resume();
    res.writeHead(503, { "content-type": "application/json" }).end('{"error":{"message":"a trap"}}');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const secret = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

const RUNS = [
  { run: "live run", env: { FLOW_MODEL: "live", JUDGE: "auto" } },
  { run: "scripted run with the judge required", env: { FLOW_MODEL: "scripted", JUDGE: "required" } },
] as const;

// Each test has its own folder, provider, trap and child run, so they run side by side.
describe("a scenario's env cannot move the provider's key", { concurrency: 3 }, () => {
  for (const { run, env } of RUNS) {
    for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY"] as const) {
      test(`a ${run} of a scenario whose env sets ${key} fails before any turn, naming the key, and neither the provider nor the scenario's server gets a request`, {
        timeout: 60_000,
      }, async (t) => {
        const apiKey = secret("sk-test-");
        const dir = await tempDir("scenario-env-key");
        const provider = await startFakeOpenAI(Object.values(basicFlowScripts));
        const trap = await startTrap();
        try {
          const scenario = readBasicFlow();
          scenario.env = { [key]: key === "OPENAI_BASE_URL" ? trap.baseURL : secret("sk-scenario-") };
          const file = writeScenario(dir.path, "moves-the-key", scenario);
          const spec = writeSpec(dir.path, file, join(dir.path, "artifacts"));
          const child = await runSpec(
            spec,
            { ...env, JUDGE_CACHE: "off", OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: provider.baseURL },
            t.signal,
          );

          assert.equal(child.code, 1, child.stdout + child.stderr);
          const results = tapResults(child.stdout);
          const load = result(results, `${file} is a valid scenario`);
          assert.equal(load.ok, false);
          assert.match(
            load.error ?? "",
            new RegExp(`- env\\.${key}: a run setting, which belongs in the run's environment`),
          );
          assert.deepEqual(
            TURN_TESTS.filter((name) => results.has(name)),
            [],
            "no turn was defined, let alone run",
          );
          assert.deepEqual(trap.seen, []);
          assert.equal(provider.requests.length, 0, "neither the model nor the judge was called");
          assert.ok(!(child.stdout + child.stderr).includes(apiKey), "the output holds the key");
        } finally {
          await trap.close();
          await provider.close();
          dir.remove();
        }
      });
    }
  }

  test("in a live run with the judge required, the key reaches OPENAI_BASE_URL on every model and judge call, and a server the scenario names in its flow's settings gets no request", {
    timeout: 60_000,
  }, async (t) => {
    const apiKey = secret("sk-test-");
    const headerToken = secret("staging-");
    const dir = await tempDir("scenario-env-key");
    const provider = await startFakeOpenAI(Object.values(basicFlowScripts));
    const authorizations: (string | undefined)[] = [];
    provider.answer = (_request, _index, headers) => {
      authorizations.push(headers["authorization"]);
      assert.equal(headers["x-staging-token"], undefined, "FLOW_HEADERS went to the provider");
      return undefined;
    };
    const trap = await startTrap();
    try {
      const scenario = readBasicFlow();
      // The flow's own setting may hold any value; the flow is what reads it, and no part of the run does.
      scenario.env = { BASIC_FLOW_WEATHER_URL: trap.baseURL };
      const spec = writeSpec(dir.path, writeScenario(dir.path, "keeps-the-key", scenario), join(dir.path, "artifacts"));
      const child = await runSpec(
        spec,
        {
          FLOW_MODEL: "live",
          JUDGE: "required",
          JUDGE_CACHE: "off",
          OPENAI_API_KEY: apiKey,
          OPENAI_BASE_URL: provider.baseURL,
          FLOW_HEADERS: JSON.stringify({ "X-Staging-Token": headerToken }),
        },
        t.signal,
      );

      assert.equal(child.code, 0, child.stdout + child.stderr);
      assert.ok(
        provider.requests.some((request) => request.response_format?.type === "json_object"),
        "the judge was called",
      );
      assert.ok(
        provider.requests.some((request) => request.response_format === undefined),
        "the model was called",
      );
      assert.deepEqual(new Set(authorizations), new Set([`Bearer ${apiKey}`]));
      assert.deepEqual(trap.seen, []);
    } finally {
      await trap.close();
      await provider.close();
      dir.remove();
    }
  });
});
