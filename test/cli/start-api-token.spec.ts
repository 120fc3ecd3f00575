import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { textRequest } from "../support/text-request.ts";

// `npm start` with FLOW_API_TOKEN locks its API (docs/reference/http-api.md, "Locking the API"): it says so
// when it starts, and the token is in none of what it prints, whatever the requests sent.

const ROOT = resolve(import.meta.dirname, "..", "..");
const TOKEN = "start-spec-token-3c1d8e0f9a27b64e";
const WRONG = "start-spec-token-3c1d8e0f9a27b64f";
// Everything that configures the server comes from the test, not from the environment running it.
const CONFIGURING = /^(HOST|PORT|SQLITE_PATH|SESSION_STORE|MONGO_URL|FLOW_MODEL|OPENAI_API_KEY|FLOW_API_TOKEN|CI)$/;

/** `npm start`'s entry in a child process with `env`, and everything it printed; `url` once it says where it serves. */
function startServer(env: Record<string, string>) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIGURING.test(key)));
  const child = spawn(process.execPath, ["src/cli/flowcheck.mjs", "serve"], {
    cwd: ROOT,
    env: { ...inherited, HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const closed = once(child, "close");
  const url = new Promise<string | undefined>((ready) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const served = /flowcheck: serving (http:\/\/127\.0\.0\.1:\d+) /.exec(output)?.[1];
      if (served) ready(served);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    void closed.then(() => ready(undefined));
  });
  return {
    url,
    output: () => output,
    /** Stops it, as Ctrl-C would, and waits for it to exit; its exit code. */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await closed;
      return child.exitCode;
    },
  };
}

// Each test has its own server process, port and SQLite file, so they run side by side.
describe("npm start with and without FLOW_API_TOKEN", { concurrency: 3 }, () => {
  test("npm start with FLOW_API_TOKEN says the API is locked, refuses requests without the token or with another, serves those with it, and never prints it", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir("start-api-token");
    const server = startServer({
      FLOW_API_TOKEN: TOKEN,
      FLOW_MODEL: "scripted",
      SQLITE_PATH: join(dir.path, "sessions.sqlite"),
    });
    try {
      const url = await server.url;
      assert.ok(url, `npm start did not serve:\n${server.output()}`);
      assert.match(
        server.output(),
        /^flowcheck: the API is locked: every request needs Authorization: Bearer <FLOW_API_TOKEN>$/m,
      );

      for (const [path, method, headers] of [
        ["/ai/flows", "GET", {}],
        ["/ai/flows", "GET", { Authorization: `Bearer ${WRONG}` }],
        ["/ai/flows", "GET", { Authorization: `Basic ${TOKEN}` }],
        ["/ai/chat", "POST", { "Content-Type": "application/json" }],
        ["/ai/sessions/00000000-0000-4000-8000-000000000000", "GET", { Authorization: `Bearer short` }],
        ["/nowhere", "GET", {}],
      ] as const) {
        const refused = await textRequest(`${url}${path}`, {
          method,
          headers,
          body: method === "POST" ? '{"message":"hi"}' : undefined,
        });
        assert.equal(refused.status, 401, `${method} ${path}: ${refused.text}`);
        assert.match(String(refused.headers["www-authenticate"]), /^Bearer realm="flowcheck"/);
        assert.equal(JSON.parse(refused.text).error.code, "unauthorized");
        assert.ok(!refused.text.includes(TOKEN) && !refused.text.includes(WRONG), refused.text);
      }

      const bearer = { Authorization: `Bearer ${TOKEN}` };
      const flows = await textRequest(`${url}/ai/flows`, { headers: bearer });
      assert.equal(flows.status, 200, flows.text);
      assert.ok(Array.isArray(JSON.parse(flows.text).flows));
      // Past the lock, the API answers as it always does (here, without relying on any registered flow).
      const noFlow = await textRequest(`${url}/ai/chat`, {
        method: "POST",
        headers: { ...bearer, "Content-Type": "application/json" },
        body: '{"message":"hi"}',
      });
      assert.equal(noFlow.status, 400, noFlow.text);
      assert.equal(JSON.parse(noFlow.text).error.code, "invalid_request");
      const noSession = await textRequest(`${url}/ai/sessions/00000000-0000-4000-8000-000000000000`, {
        headers: bearer,
      });
      assert.equal(noSession.status, 404, noSession.text);
      assert.equal(JSON.parse(noSession.text).error.code, "session_not_found");
    } finally {
      await server.stop();
      dir.remove();
    }
    assert.ok(!server.output().includes(TOKEN), `npm start printed the token:\n${server.output()}`);
    assert.ok(!server.output().includes(WRONG), `npm start printed a token it was sent:\n${server.output()}`);
  });

  test("npm start without FLOW_API_TOKEN says nothing of a lock and serves requests without Authorization", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir("start-api-token");
    const server = startServer({ FLOW_MODEL: "scripted", SQLITE_PATH: join(dir.path, "sessions.sqlite") });
    try {
      const url = await server.url;
      assert.ok(url, `npm start did not serve:\n${server.output()}`);
      assert.doesNotMatch(server.output(), /locked/);
      const flows = await textRequest(`${url}/ai/flows`);
      assert.equal(flows.status, 200, flows.text);
    } finally {
      await server.stop();
      dir.remove();
    }
  });

  test("npm start with a FLOW_API_TOKEN too short to be safe exits 1 with config_invalid, never printing it", {
    timeout: 60_000,
  }, async () => {
    const short = "tiny-token-9";
    const server = startServer({
      FLOW_API_TOKEN: short,
      FLOW_MODEL: "scripted",
      SQLITE_PATH: join(ROOT, "test", ".tmp", "never-opened.sqlite"),
    });
    assert.equal(await server.url, undefined, `npm start served with a short token:\n${server.output()}`);
    assert.equal(await server.stop(), 1);
    assert.match(
      server.output(),
      /flowcheck: config_invalid: The environment is not valid:\n- FLOW_API_TOKEN is shorter than 16 characters/,
    );
    assert.ok(!server.output().includes(short), server.output());
  });
});
