import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

const twoTurns = fakeScenario([
  { label: "first", input: "hello", expectedActiveStep: "AskStep" },
  { label: "second", input: "again", expectedActiveStep: "NextStep" },
]);

test("headers given to a run go with every request, the runner's own win, and the reports show them redacted", async () => {
  const { turns, outcome, fake } = await playAgainstFake(
    twoTurns,
    {},
    { headers: { "X-Tenant": "acme-staging", Accept: "text/plain" } },
  );
  assert.equal(outcome, "passed");
  assert.deepEqual(
    fake.received.map(({ headers }) => [headers["x-tenant"], headers["accept"]]),
    [
      ["acme-staging", "application/json"],
      ["acme-staging", "application/json"],
    ],
  );
  for (const turn of turns) {
    assert.equal(turn.request?.headers["X-Tenant"], "[redacted]");
    assert.equal(turn.request?.headers["Content-Type"], "application/json");
  }
});

test("FLOW_HEADERS is a JSON object of header names and string values, read without ever quoting a value", () => {
  assert.deepEqual(loadConfig({}).requestHeaders, {});
  assert.deepEqual(
    loadConfig({ FLOW_HEADERS: '{"Authorization": "Bearer s3cret", "X-Tenant": "acme"}' }).requestHeaders,
    {
      Authorization: "Bearer s3cret",
      "X-Tenant": "acme",
    },
  );
  const problems = (value: string) => {
    try {
      loadConfig({ FLOW_HEADERS: value });
      return [];
    } catch (error) {
      return (error as { details: string[] }).details;
    }
  };
  assert.deepEqual(problems("Bearer s3cret"), [
    'FLOW_HEADERS is not valid JSON (its value is not shown: it may hold credentials); expected an object of header names and values, e.g. {"Authorization": "Bearer …"}.',
  ]);
  assert.deepEqual(problems('["s3cret"]'), [
    'FLOW_HEADERS is not a JSON object; expected header names and values, e.g. {"Authorization": "Bearer …"}.',
  ]);
  assert.deepEqual(
    problems(
      '{"X Tenant": "a", "CHAT_SESSION_ID": "b", "Accept": "c", "Idempotency-Key": "d", "X-Retries": 3, "X-Key": "s3cret"}',
    ),
    [
      'FLOW_HEADERS has "X Tenant", which is not a header name.',
      "FLOW_HEADERS has CHAT_SESSION_ID, which the runner sets itself; drop it.",
      "FLOW_HEADERS has Accept, which the runner sets itself; drop it.",
      "FLOW_HEADERS has Idempotency-Key, which the runner sets itself; drop it.",
      "FLOW_HEADERS has X-Retries with a number value; header values are strings.",
    ],
  );
  for (const value of ["Bearer s3cret", '["s3cret"]']) assert.doesNotMatch(problems(value).join(" "), /s3cret/);
});

test("FLOW_HEADERS that carries the provider's key is refused, naming the header and not the key: the key goes to the provider alone", () => {
  const apiKey = "sk-test-0123456789abcdef";
  assert.throws(
    () =>
      loadConfig({
        OPENAI_API_KEY: apiKey,
        FLOW_HEADERS: JSON.stringify({ "X-Tenant": "acme", Authorization: `Bearer ${apiKey}` }),
      }),
    (error: Error & { details?: string[] }) => {
      assert.deepEqual(error.details, [
        "FLOW_HEADERS has Authorization carrying OPENAI_API_KEY's value (not shown), which would send the provider's key to the target; give the target its own credential.",
      ]);
      assert.doesNotMatch(error.message, /0123456789abcdef/);
      return true;
    },
  );
  assert.deepEqual(
    loadConfig({ OPENAI_API_KEY: apiKey, FLOW_HEADERS: '{"Authorization": "Bearer the-targets-own"}' }).requestHeaders,
    { Authorization: "Bearer the-targets-own" },
  );
});
