import assert from "node:assert/strict";
import { test } from "node:test";
import { bearerTokenGate } from "../../src/http/bearer-token-gate.ts";
import type { HttpResponse } from "../../src/http/http-exchange.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { ledgerFlows, UNRENDERABLE } from "../support/ledger-flow.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { textRequest, type TextAnswer } from "../support/text-request.ts";

// With an API token (`npm start` with FLOW_API_TOKEN) every request must carry
// `Authorization: Bearer <token>`; anything else is 401 `unauthorized`, whatever the route, and no
// answer or log line ever holds the token or what was sent instead.

const TOKEN = "flowcheck-test-token-5f0c9a7e2b14";
const WRONG_SAME_LENGTH = "flowcheck-test-token-5f0c9a7e2b15";
const WRONG_SHORT = "nope";

/** Each way of not carrying the token, and the Authorization header it sends (none for the first). */
const REFUSED: readonly { name: string; authorization: string | undefined }[] = [
  { name: "no Authorization header", authorization: undefined },
  { name: "a wrong token of the same length", authorization: `Bearer ${WRONG_SAME_LENGTH}` },
  { name: "a wrong token of another length", authorization: `Bearer ${WRONG_SHORT}` },
  { name: "the token under another scheme", authorization: `Basic ${TOKEN}` },
  { name: "the Bearer scheme with no token", authorization: "Bearer" },
];

function headersWith(authorization: string | undefined, headers: Record<string, string> = {}): Record<string, string> {
  return authorization === undefined ? headers : { ...headers, Authorization: authorization };
}

/** A refusal as the API answers it: 401, the error shape with `unauthorized`, a Bearer challenge, and neither token in the message. */
function assertRefused(
  answer: { status: number; headers: Record<string, string | string[] | undefined>; body: string },
  why: string,
): void {
  assert.equal(answer.status, 401, `${why}: ${answer.body}`);
  assert.match(String(answer.headers["www-authenticate"]), /^Bearer realm="flowcheck"(, error="invalid_token")?$/, why);
  const body = JSON.parse(answer.body) as { success: boolean; error: { code: string; message: string } };
  assert.deepEqual(Object.keys(body), ["success", "error"], why);
  assert.deepEqual(Object.keys(body.error), ["code", "message"], why);
  assert.equal(body.success, false, why);
  assert.equal(body.error.code, "unauthorized", why);
  assert.match(body.error.message, /send Authorization: Bearer <the FLOW_API_TOKEN the server was started with>/, why);
  for (const secret of [TOKEN, WRONG_SAME_LENGTH, WRONG_SHORT])
    assert.ok(!answer.body.includes(secret), `${why}: the answer quotes ${secret}`);
}

function refusalOf(response: HttpResponse | undefined): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  assert.ok(response, "the gate let the request through");
  assert.equal(typeof response.body, "string");
  // As node:http gives them to a client: lower-case names.
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return { status: response.status, headers, body: response.body as string };
}

test("the gate lets a request through only with Authorization: Bearer and the token, the scheme in any letter case", () => {
  const gate = bearerTokenGate(TOKEN);
  const request = (authorization: string | undefined) => ({
    method: "GET",
    url: "/ai/flows",
    headers: authorization === undefined ? {} : { authorization },
  });
  for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER  ${TOKEN}`])
    assert.equal(gate(request(authorization)), undefined, authorization);
  for (const { name, authorization } of REFUSED) assertRefused(refusalOf(gate(request(authorization))), name);
  assertRefused(refusalOf(gate(request(`Bearer ${TOKEN} extra`))), "the token followed by more");
});

test("the gate's refusal says what is missing or wrong, and challenges a wrong token as invalid_token", () => {
  const gate = bearerTokenGate(TOKEN);
  const refused = (authorization: string | undefined) => {
    const { body, headers } = refusalOf(
      gate({ method: "POST", url: "/ai/chat", headers: authorization === undefined ? {} : { authorization } }),
    );
    return {
      message: (JSON.parse(body) as { error: { message: string } }).error.message,
      challenge: headers["www-authenticate"],
    };
  };
  assert.deepEqual(refused(undefined), {
    message:
      "The request has no Authorization header, and this server's API is locked; send Authorization: Bearer <the FLOW_API_TOKEN the server was started with>.",
    challenge: 'Bearer realm="flowcheck"',
  });
  assert.match(
    refused(`Basic ${TOKEN}`).message,
    /^The Authorization header is not of the Bearer scheme \(its value is not shown\); send /,
  );
  assert.equal(refused(`Basic ${TOKEN}`).challenge, 'Bearer realm="flowcheck"');
  assert.match(
    refused("Bearer ").message,
    /^The Authorization header names the Bearer scheme but carries no token; send /,
  );
  assert.deepEqual(refused(`Bearer ${WRONG_SAME_LENGTH}`), {
    message:
      "The bearer token does not match this server's FLOW_API_TOKEN (neither is shown); send Authorization: Bearer <the FLOW_API_TOKEN the server was started with>.",
    challenge: 'Bearer realm="flowcheck", error="invalid_token"',
  });
});

/** A locked server of the BasicFlow fixture, closed after `body`. */
async function withLockedServer(
  body: (server: TestServer, logged: string[]) => Promise<void>,
  flows = [basicFlowEntry],
): Promise<void> {
  const logged: string[] = [];
  const server = await startTestServer({ flows, apiToken: TOKEN, log: (line) => logged.push(line) });
  try {
    await body(server, logged);
  } finally {
    await server.close();
  }
}

function asAnswer(answer: TextAnswer) {
  return { status: answer.status, headers: answer.headers, body: answer.text };
}

test("over HTTP, POST /ai/chat, GET /ai/flows and GET /ai/sessions/:id answer 401 without the token, with a wrong one, one of another length or another scheme, and 200 with it", async () => {
  await withLockedServer(async (server) => {
    const chat = (authorization: string | undefined, session?: string) =>
      textRequest(`${server.url}/ai/chat`, {
        method: "POST",
        headers: headersWith(authorization, {
          "Content-Type": "application/json",
          ...(session ? { CHAT_SESSION_ID: session } : {}),
        }),
        body: JSON.stringify(session ? { message: "John Wick" } : { flow: "BasicFlow", message: "John Doe" }),
      });
    const started = await chat(`Bearer ${TOKEN}`);
    assert.equal(started.status, 200, started.text);
    const session = JSON.parse(started.text).session as string;
    const routes: Record<string, (authorization: string | undefined) => Promise<TextAnswer>> = {
      "POST /ai/chat": (authorization) => chat(authorization, session),
      "GET /ai/flows": (authorization) =>
        textRequest(`${server.url}/ai/flows`, { headers: headersWith(authorization) }),
      "GET /ai/sessions/:id": (authorization) =>
        textRequest(`${server.url}/ai/sessions/${session}`, { headers: headersWith(authorization) }),
    };
    for (const [route, send] of Object.entries(routes)) {
      for (const { name, authorization } of REFUSED)
        assertRefused(asAnswer(await send(authorization)), `${route} with ${name}`);
      const accepted = await send(`Bearer ${TOKEN}`);
      assert.equal(accepted.status, 200, `${route} with the token: ${accepted.text}`);
      assert.equal(accepted.headers["www-authenticate"], undefined);
    }
    const stored = await server.app.store.fetchHead(session);
    assert.equal(stored?.turns, 2, "of the turns sent to the session, only the one with the token was applied");
  });
});

test("over HTTP, an unknown route and a wrong method without the token are 401, not 404 or 405, and with it 404 and 405", async () => {
  await withLockedServer(async (server) => {
    const bearer = { Authorization: `Bearer ${TOKEN}` };
    for (const [method, path] of [
      ["GET", "/no/such/route"],
      ["GET", "/"],
      ["DELETE", "/ai/flows"],
      ["GET", "/ai/chat"],
    ] as const) {
      assertRefused(
        asAnswer(await textRequest(`${server.url}${path}`, { method })),
        `${method} ${path} without the token`,
      );
      assertRefused(
        asAnswer(
          await textRequest(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${WRONG_SHORT}` } }),
        ),
        `${method} ${path} with a wrong token`,
      );
    }
    const unknown = await textRequest(`${server.url}/no/such/route`, { headers: bearer });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(JSON.parse(unknown.text).error.code, "not_found");
    const wrongMethod = await textRequest(`${server.url}/ai/flows`, { method: "DELETE", headers: bearer });
    assert.equal(wrongMethod.status, 405, wrongMethod.text);
    assert.equal(wrongMethod.headers["allow"], "GET");
  });
});

test("over HTTP, a body over the size limit without the token is 401: the lock is checked before the body is read", async () => {
  await withLockedServer(async (server) => {
    const body = JSON.stringify({ flow: "BasicFlow", message: "x".repeat(2 * 1024 * 1024) });
    const refused = await textRequest(`${server.url}/ai/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    assertRefused(asAnswer(refused), "a 2 MiB body without the token");
    const tooLarge = await textRequest(`${server.url}/ai/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
      body,
    });
    assert.equal(tooLarge.status, 413, tooLarge.text);
  });
});

test("a locked server's error log holds neither the token nor a refused one: a 500 is logged, the refusals are not", async () => {
  await withLockedServer(async (server, logged) => {
    const post = (message: Record<string, string>, headers: Record<string, string>) =>
      textRequest(`${server.url}/ai/chat`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(message),
      });
    const first = await post({ flow: "LedgerFlow", message: "bolts" }, { Authorization: `Bearer ${TOKEN}` });
    assert.equal(first.status, 200, first.text);
    const session = JSON.parse(first.text).session as string;
    assertRefused(
      asAnswer(
        await post(
          { message: UNRENDERABLE },
          { Authorization: `Bearer ${WRONG_SAME_LENGTH}`, CHAT_SESSION_ID: session },
        ),
      ),
      "a wrong token",
    );
    assert.deepEqual(logged, [], "a refusal is the client's mistake, never logged");
    const failed = await post(
      { message: UNRENDERABLE },
      { Authorization: `Bearer ${TOKEN}`, CHAT_SESSION_ID: session, Accept: "text/csv" },
    );
    assert.equal(failed.status, 500, failed.text);
    assert.equal(logged.length, 1, "the 500 reaches the log");
    for (const secret of [TOKEN, WRONG_SAME_LENGTH])
      assert.ok(!logged.join("\n").includes(secret), `the log holds ${secret}`);
  }, ledgerFlows);
});

test("an app served without an API token is open, even with FLOW_API_TOKEN in the environment it was configured from", async () => {
  const server = await startTestServer({ flows: [basicFlowEntry], env: { FLOW_API_TOKEN: TOKEN } });
  try {
    assert.equal(server.app.config.apiToken, TOKEN);
    const flows = await textRequest(`${server.url}/ai/flows`);
    assert.equal(flows.status, 200, flows.text);
  } finally {
    await server.close();
  }
});
