import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadScenario, ScenarioRun, type Transcript } from "../../../src/testing/index.ts";
import { TranscriptWriter } from "../../../src/testing/report/transcript-writer.ts";
import { flowcheckApi } from "../../../src/testing/target/flowcheck-api.ts";
import { redactHeaders } from "../../../src/testing/client/redact-headers.ts";
import { BasicFlow, basicFlowEntry, basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import { startTestServer } from "../../support/test-server.ts";
import { readBasicFlow, result, runSpec, tapResults, writeScenario, writeSpec } from "../../support/child-run.ts";

// A run's artifacts (transcripts, the judge cache) and everything it prints never hold the API key
// or a secret pinned by a scenario, though the key was sent to the provider on every call.

function secret(prefix: string): string {
  return `${prefix}${randomBytes(16).toString("hex")}`;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A pass-through proxy in front of `targetBaseURL` that records the headers of every request. */
async function recordingProxy(
  targetBaseURL: string,
  rewrite?: (headers: http.IncomingHttpHeaders) => http.OutgoingHttpHeaders,
) {
  const target = new URL(targetBaseURL);
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, rewrite ? rewrite(answer.headers) : answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    baseURL: `${base}${target.pathname === "/" ? "" : target.pathname}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

// Each has its own folder, fake provider, proxy and child run, so the two run side by side.
describe("a live run in a child process keeps the API key out of what it writes and prints", { concurrency: 2 }, () => {
  test("a failing live run writes its transcript and judge cache and prints its report, and none of them holds the API key or a KEY or TOKEN pin, though the provider got the key", {
    timeout: 60_000,
  }, async (t) => {
    const apiKey = secret("sk-test-");
    const token = secret("tok-");
    const pinnedKey = secret("wk-");
    const dir = await tempDir("secrets");
    const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
    const proxy = await recordingProxy(fake.baseURL);
    try {
      // The model fails on turn 3 (a 502 model_error the scenario does not expect), so the run fails
      // with a transcript, after two judged turns that fill the judge cache.
      fake.answer = (request) => {
        const last = request.messages.at(-1);
        if (request.response_format === undefined && last?.role === "user" && last.content === "LA, NYC") {
          return { status: 500, body: { error: { message: "the fake model is down", type: "server_error" } } };
        }
        return undefined;
      };
      const scenario = readBasicFlow();
      scenario.env = { BASIC_FLOW_API_TOKEN: token, BASIC_FLOW_WEATHER_KEY: pinnedKey };
      const artifacts = join(dir.path, "artifacts");
      const spec = writeSpec(dir.path, writeScenario(dir.path, "secret-pins", scenario), artifacts);
      const run = await runSpec(
        spec,
        { FLOW_MODEL: "live", OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: proxy.baseURL },
        t.signal,
      );

      // The run failed as planned, and wrote its artifacts.
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      assert.equal(result(results, "2. name accepted · judge").ok, true, run.stdout);
      assert.equal(result(results, "3. two cities").ok, false, run.stdout);
      const files = filesUnder(artifacts);
      t.diagnostic(`artifacts: ${files.map((file) => file.slice(artifacts.length + 1)).join(", ")}`);
      const transcriptFile = join(artifacts, "secret-pins-contract-failure.json");
      assert.ok(files.includes(transcriptFile), `a transcript was written: ${files.join(", ")}`);
      assert.ok(
        files.some((file) => file.includes(join("artifacts", "judge-cache"))),
        `the judge cache was written: ${files.join(", ")}`,
      );
      const transcript = JSON.parse(readFileSync(transcriptFile, "utf8")) as Transcript;
      assert.equal(transcript.turns[2]?.response?.status, 502);
      assert.equal(transcript.pins["BASIC_FLOW_API_TOKEN"], "[redacted]");
      assert.equal(transcript.pins["BASIC_FLOW_WEATHER_KEY"], "[redacted]");

      // The key was in play: every call to the provider, the model's and the judge's, carried it.
      assert.ok(proxy.seen.length > 0);
      assert.ok(
        fake.requests.some((request) => request.response_format?.type === "json_object"),
        "the judge was called",
      );
      for (const headers of proxy.seen) assert.equal(headers["authorization"], `Bearer ${apiKey}`);

      // And it is nowhere in what the run left behind or printed.
      const places = [
        ...files.map((file) => ({ where: file, text: readFileSync(file, "utf8") })),
        { where: "stdout", text: run.stdout },
        { where: "stderr", text: run.stderr },
      ];
      for (const { where, text } of places) {
        for (const [name, value] of [
          ["the API key", apiKey],
          ["the TOKEN pin", token],
          ["the KEY pin", pinnedKey],
        ] as const) {
          assert.ok(!text.includes(value), `${where} holds ${name}`);
          // Nor a large part of it (a truncated or partly masked copy).
          assert.ok(!text.includes(value.slice(-16)), `${where} holds the end of ${name}`);
        }
        assert.doesNotMatch(text, /Bearer\s+(?!\[redacted\])\S/, `${where} holds an authorization value`);
      }
    } finally {
      await proxy.close();
      await fake.close();
      dir.remove();
    }
  });

  test("a provider error that quotes the API key (as some OpenAI-compatible gateways do) does not carry the key into the answer, the transcript or the output", {
    timeout: 60_000,
  }, async (t) => {
    const apiKey = secret("sk-test-");
    const dir = await tempDir("secrets-echo");
    const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
    try {
      fake.answer = (request) => {
        const last = request.messages.at(-1);
        if (request.response_format === undefined && last?.role === "user" && last.content === "LA, NYC") {
          return {
            status: 401,
            body: {
              error: {
                message: `Incorrect API key provided: ${apiKey}.`,
                type: "invalid_request_error",
                code: "invalid_api_key",
              },
            },
          };
        }
        return undefined;
      };
      const artifacts = join(dir.path, "artifacts");
      const spec = writeSpec(dir.path, writeScenario(dir.path, "echoed-key", readBasicFlow()), artifacts);
      const run = await runSpec(
        spec,
        { FLOW_MODEL: "live", OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: fake.baseURL, JUDGE: "off" },
        t.signal,
      );
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(result(tapResults(run.stdout), "3. two cities").ok, false, run.stdout);
      const files = filesUnder(artifacts);
      assert.ok(files.length > 0, "a transcript was written");
      const transcriptFile = join(artifacts, "echoed-key-contract-failure.json");
      assert.ok(files.includes(transcriptFile), files.join(", "));
      const answer = (JSON.parse(readFileSync(transcriptFile, "utf8")) as Transcript).turns[2]?.response;
      assert.equal(answer?.status, 502);
      const places = [
        { where: "the 502 answer the server sent", text: JSON.stringify(answer?.body) },
        ...files.map((file) => ({ where: file, text: readFileSync(file, "utf8") })),
        { where: "stdout", text: run.stdout },
        { where: "stderr", text: run.stderr },
      ];
      const leaks = places.filter(({ text }) => text.includes(apiKey)).map(({ where }) => where);
      assert.deepStrictEqual(leaks, [], "these hold the API key");
    } finally {
      await fake.close();
      dir.remove();
    }
  });
});
test("redactHeaders replaces authorization, proxy-authorization, cookie, set-cookie and x-api-key in any letter case, and keeps the rest, Idempotency-Key too", () => {
  const key = secret("sk-test-");
  const headers = {
    Authorization: `Bearer ${key}`,
    "proxy-authorization": `Basic ${key}`,
    Cookie: `sid=${key}`,
    "set-cookie": [`sid=${key}; HttpOnly`, `other=${key}`],
    "X-API-Key": key,
    "x-auth-token": key,
    "Content-Type": "application/json",
    CHAT_SESSION_ID: "5b0e0000-0000-4000-8000-000000000000",
    "Idempotency-Key": "0c6f1d2e-run-1",
  };
  const safe = redactHeaders(headers as unknown as Record<string, string>);
  for (const name of ["Authorization", "proxy-authorization", "Cookie", "set-cookie", "X-API-Key", "x-auth-token"]) {
    assert.equal(safe[name], "[redacted]", name);
  }
  assert.equal(safe["Content-Type"], "application/json");
  assert.equal(safe["CHAT_SESSION_ID"], "5b0e0000-0000-4000-8000-000000000000");
  assert.equal(safe["Idempotency-Key"], "0c6f1d2e-run-1");
  assert.ok(!JSON.stringify(safe).includes(key));
});

test("a transcript of a turn whose answer carries authorization, cookie and x-api-key headers records them redacted", async () => {
  const key = secret("sk-test-");
  const dir = await tempDir("secrets-headers");
  const server = await startTestServer({ flows: [basicFlowEntry], env: { FLOW_MODEL: "scripted" } });
  // The server behind a proxy that adds credential headers to every answer, as a gateway might.
  const proxy = await recordingProxy(server.url, (headers) => ({
    ...headers,
    authorization: `Bearer ${key}`,
    "proxy-authorization": `Basic ${key}`,
    "x-api-key": key,
    cookie: `sid=${key}`,
    "set-cookie": [`sid=${key}; HttpOnly`],
  }));
  try {
    const scenario = readBasicFlow();
    // One turn that fails its contract (the placeholder name stays on NameStep), so a transcript is written.
    scenario.turns = [{ ...scenario.turns[0]!, expectedActiveStep: "WeatherStep" }];
    delete scenario.finalState;
    delete scenario.finalExecution;
    const file = join(dir.path, "headers.scenario.json");
    writeFileSync(file, JSON.stringify({ ...scenario, $schema: undefined }));
    const loaded = loadScenario(file, [BasicFlow]);
    const writer = new TranscriptWriter(join(dir.path, "artifacts"));
    const run = new ScenarioRun(loaded, {
      description: { baseUrl: proxy.url, pins: {} },
      ...flowcheckApi(proxy.url),
      sessions: {
        reader: { description: "the test server's store", fetchAll: (id) => server.app.engine.fetchAll(id) },
      },
      close: async () => undefined,
    }).on(writer.listener);
    run.start();
    const report = await run.playTurn(0);
    await run.finish();
    run.end();

    assert.equal(report.outcome, "failed", report.failure);
    assert.equal(proxy.seen.length, 1);
    assert.ok(writer.path, "a transcript was written");
    const text = readFileSync(join(dir.path, "artifacts", "headers-contract-failure.json"), "utf8");
    const transcript = JSON.parse(text) as Transcript;
    const headers = transcript.turns[0]?.response?.headers ?? {};
    for (const name of ["authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie"]) {
      assert.equal(headers[name], "[redacted]", `response header ${name}`);
    }
    assert.match(headers["content-type"] ?? "", /^application\/json/);
    for (const [name, value] of Object.entries(transcript.turns[0]?.request?.headers ?? {})) {
      if (/^(authorization|cookie|x-api-key)$/i.test(name)) assert.equal(value, "[redacted]", `request header ${name}`);
    }
    assert.ok(!text.includes(key), "the transcript holds the key");
  } finally {
    await proxy.close();
    await server.close();
    dir.remove();
  }
});
