import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { runScenario, type Transcript } from "../../../src/testing/index.ts";
import { TranscriptWriter } from "../../../src/testing/report/transcript-writer.ts";
import { secretValuesOf } from "../../../src/testing/target/secret-values-of.ts";
import { loadTargetConfig } from "../../../src/testing/target/target-config.ts";
import { collect, FakeChatServer, fakeScenario } from "../../support/fake-chat-server.ts";
import { tempDir } from "../../support/temp-path.ts";

const FIXTURES = resolve(import.meta.dirname, "..", "..", "fixtures", "target-config");

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("secret-values");
});
after(() => dir.remove());

/** A project root in the temp folder whose one flowcheck target, on 127.0.0.1, sends `headers`. */
function rootWithHeaders(headers: Record<string, string>): string {
  const path = join(dir.path, "root");
  mkdirSync(path, { recursive: true });
  const target = { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000", headers };
  writeFileSync(join(path, "flowcheck.config.json"), JSON.stringify({ targets: { fake: target } }));
  return path;
}

test("secretValuesOf gives every target's header values as read, and a credential's part after its scheme", () => {
  const config = loadTargetConfig(join(FIXTURES, "flowcheck"), {
    STAGING_HOST: "flows.staging.test",
    STAGING_API_TOKEN: "tok-staging-1234",
  })!;
  assert.deepEqual(secretValuesOf(config), ["Bearer tok-staging-1234", "support", "tok-staging-1234"]);
});

test("a target's header value that the server echoes is [redacted] in the written transcript when the writer is given secretValuesOf", async () => {
  const token = "tok-echoed-0123456789abcdef";
  const config = loadTargetConfig(rootWithHeaders({ "X-Tenant-Key": "${TENANT_KEY}" }), { TENANT_KEY: token })!;
  // The server puts what it was sent in its answer's text, as a careless debug mode might.
  const fake: FakeChatServer = await FakeChatServer.start({
    reply: (reply) => {
      const body = JSON.parse(reply.body) as Record<string, unknown>;
      body["response"] = `you sent ${String(fake.received.at(-1)?.headers["x-tenant-key"])}`;
      return { ...reply, body: JSON.stringify(body) };
    },
  });
  try {
    // One turn that fails (the server stays on AskStep), so a transcript is written.
    const loaded = fakeScenario([{ label: "hello", input: "hi", expectedActiveStep: "NextStep" }]);
    const redacted = new TranscriptWriter(join(dir.path, "redacted"), undefined, secretValuesOf(config));
    const plain = new TranscriptWriter(join(dir.path, "plain"));
    const events = runScenario(loaded, fake.target(), { headers: config.targets["fake"]!.headers! });
    const played = await collect(
      (async function* () {
        for await (const event of events) {
          redacted.listener(event);
          plain.listener(event);
          yield event;
        }
      })(),
    );
    assert.equal(played.outcome, "failed");
    assert.equal(fake.received.at(-1)?.headers["x-tenant-key"], token, "the target got the header as read");
    const read = (folder: string) => readFileSync(join(dir.path, folder, "fake-contract-failure.json"), "utf8");
    // Without the secrets, the echo reaches the transcript: the redaction is what keeps it out.
    assert.ok(read("plain").includes(token));
    const text = read("redacted");
    assert.ok(!text.includes(token), text);
    const transcript = JSON.parse(text) as Transcript;
    assert.equal(transcript.turns[0]?.request?.headers["X-Tenant-Key"], "[redacted]");
    assert.match(JSON.stringify(transcript.turns[0]?.response?.body), /you sent \[redacted\]/);
  } finally {
    await fake.close();
  }
});
