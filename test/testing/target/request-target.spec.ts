import assert from "node:assert/strict";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import {
  jsonBodyOf,
  requestTarget,
  type RefusedDetails,
  type TargetRequest,
} from "../../../src/testing/target/request-target.ts";
import { bodyOf, closedPort, listenOnLoopback } from "../../support/loopback-server.ts";

const FIXES = { slow: "raise SLOW.", unreachable: "start UNREACHABLE.", refused: "fix REFUSED." };

function get(url: string, more: Partial<TargetRequest> = {}): TargetRequest {
  return { method: "GET", url, headers: {}, timeoutMs: 5_000, fixes: FIXES, ...more };
}

test("a server that never answers fails once timeoutMs has passed, not later, naming the request and the slow fix", async (t) => {
  const server = await listenOnLoopback((request) => request.resume());
  t.after(() => server.close());
  const started = performance.now();
  await assert.rejects(requestTarget(get(`${server.url}/graph`, { timeoutMs: 100 })), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "target_unreachable"), String(error));
    assert.equal(error.message, `GET ${server.url}/graph gave no whole answer within 100 ms; raise SLOW.`);
    return true;
  });
  // Well under the 5 s a hang would cost, with room for a loaded machine.
  assert.ok(performance.now() - started < 2_000, `took ${performance.now() - started} ms`);
});

test("a body that starts but never ends fails at timeoutMs like a server that never answers", async (t) => {
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).write('{"partial":');
  });
  t.after(() => server.close());
  await assert.rejects(requestTarget(get(server.url, { timeoutMs: 100 })), {
    code: "target_unreachable",
    message: /gave no whole answer within 100 ms; raise SLOW\.$/,
  });
});

test("a refused port is target_unreachable naming the request, the socket's code and the fix", async () => {
  const port = await closedPort();
  await assert.rejects(requestTarget({ ...get(`http://127.0.0.1:${port}/threads`), method: "POST", body: "{}" }), {
    code: "target_unreachable",
    message: `POST http://127.0.0.1:${port}/threads could not be reached (ECONNREFUSED); start UNREACHABLE.`,
  });
});

test("a 500 is target_invalid_answer naming the status, quoting the body cut to 300 characters, with the fix, and the request and answer in its details", async (t) => {
  const body = JSON.stringify({ error: "database down", trace: "x".repeat(1000) });
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(500, { "content-type": "application/json" }).end(body);
  });
  t.after(() => server.close());
  await assert.rejects(requestTarget(get(`${server.url}/state`)), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "target_invalid_answer"), String(error));
    assert.equal(
      error.message,
      `GET ${server.url}/state answered 500 Internal Server Error: ${JSON.stringify(body).slice(0, 300)}…. fix REFUSED.`,
    );
    const { headers, ...details } = error.details as RefusedDetails;
    assert.deepEqual(details, {
      status: 500,
      body,
      request: { method: "GET", url: `${server.url}/state`, headers: {}, body: "" },
    });
    assert.equal(headers["content-type"], "application/json");
    return true;
  });
});

test("an expected error status is returned with its body, not thrown", async (t) => {
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(422, { "content-type": "application/json" }).end('{"error":"too long"}');
  });
  t.after(() => server.close());
  const exchange = await requestTarget(get(server.url, { expectedStatus: 422 }));
  assert.deepEqual([exchange.status, exchange.raw], [422, '{"error":"too long"}']);
});

test("a body that is not JSON is target_invalid_answer with its content-type, quoting it, and what was expected", async (t) => {
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "text/html" }).end("<html>welcome</html>");
  });
  t.after(() => server.close());
  const exchange = await requestTarget(get(`${server.url}/threads`));
  assert.throws(() => jsonBodyOf(exchange, "Point baseUrl at the API."), {
    code: "target_invalid_answer",
    message: `GET ${server.url}/threads answered 200 with a body that is not JSON (content-type text/html): "<html>welcome</html>". Point baseUrl at the API.`,
  });
});

test("the request goes out with its method, headers and body, and the answer comes back whole with lower-case header names", async (t) => {
  const seen: string[] = [];
  const server = await listenOnLoopback(async (request, response) => {
    seen.push(request.method!, request.url!, String(request.headers["x-api-key"]), await bodyOf(request));
    response.writeHead(201, { "X-Thread": "t-1", "content-type": "application/json" }).end('{"thread_id":"t-1"}');
  });
  t.after(() => server.close());
  const exchange = await requestTarget({
    ...get(`${server.url}/threads`),
    method: "POST",
    headers: { "x-api-key": "k" },
    body: "{}",
  });
  assert.deepEqual(seen, ["POST", "/threads", "k", "{}"]);
  assert.equal(exchange.headers["x-thread"], "t-1");
  assert.deepEqual(jsonBodyOf(exchange, "unused"), { thread_id: "t-1" });
});
