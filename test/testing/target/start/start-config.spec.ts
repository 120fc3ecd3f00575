import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import { loadTargetConfig } from "../../../../src/testing/target/target-config.ts";
import { tempDir } from "../../../support/temp-path.ts";

// A target's start and model as flowcheck.config.json gives them, loaded: what is resolved and what is refused.
let dir: { path: string; remove(): void } | undefined;

afterEach(() => {
  dir?.remove();
  dir = undefined;
});

async function loaded(targets: object, env: Record<string, string> = {}) {
  dir = await tempDir("start-config");
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  return loadTargetConfig(dir.path, env);
}

async function problemsOf(targets: object, env: Record<string, string> = {}): Promise<string> {
  try {
    await loaded(targets, env);
  } catch (error) {
    assert.ok(isFlowcheckError(error, "target_config_invalid"), String(error));
    return error.message;
  }
  assert.fail("the config loaded");
}

const desk = (extra: object = {}, start: object = {}) => ({
  kind: "flowcheck",
  baseUrl: "http://127.0.0.1:{{port}}",
  start: { command: "node server.mjs", env: { PORT: "{{port}}" }, ready: "http://127.0.0.1:{{port}}/health", ...start },
  ...extra,
});

test("a started target loads with {{port}} kept for the start, start.env's ${VAR} read, cwd and model.scripts made absolute from the config's folder", async () => {
  const config = await loaded(
    {
      desk: desk(
        { model: { scripts: "./test/desk-model.ts" } },
        { cwd: "./desk", env: { PORT: "{{port}}", MODE: "${DESK_MODE}" } },
      ),
    },
    { DESK_MODE: "quiet" },
  );
  assert.deepEqual(config?.targets["desk"], {
    kind: "flowcheck",
    baseUrl: "http://127.0.0.1:{{port}}",
    start: {
      command: "node server.mjs",
      cwd: join(dir!.path, "desk"),
      env: { PORT: "{{port}}", MODE: "quiet" },
      ready: "http://127.0.0.1:{{port}}/health",
    },
    model: { scripts: join(dir!.path, "test", "desk-model.ts") },
  });
});

test("{{port}} anywhere but baseUrl, start.ready and start.env values is refused with its JSON path, and anywhere at all in a target without start", async () => {
  const message = await problemsOf({
    desk: desk({ headers: { "X-Port": "{{port}}" } }, { command: "node server.mjs --port {{port}}" }),
    plain: { kind: "flowcheck", baseUrl: "http://127.0.0.1:{{port}}" },
  });
  assert.match(
    message,
    /targets\.desk\.headers\.X-Port: \{\{port\}\} is filled only in baseUrl, start\.ready and start\.env values/,
  );
  assert.match(message, /targets\.desk\.start\.command: \{\{port\}\} is filled only in/);
  assert.match(
    message,
    /targets\.plain\.baseUrl: \{\{port\}\} is the port of an app flowcheck starts, and the target has no "start"/,
  );
  assert.doesNotMatch(message, /targets\.desk\.(baseUrl|start\.ready|start\.env)/);
});

test("a provider key in start.env is refused, as a reference and as a value, and an unset variable is named", async () => {
  const message = await problemsOf(
    {
      desk: desk(
        {},
        { env: { PORT: "{{port}}", KEY: "${OPENAI_API_KEY}", COPY: "sk-live-abcdef123", OTHER: "${NOT_SET}" } },
      ),
    },
    { OPENAI_API_KEY: "sk-live-abcdef123" },
  );
  assert.match(
    message,
    /targets\.desk\.start\.env\.KEY: \$\{OPENAI_API_KEY\} is the provider's key, which goes to the provider alone/,
  );
  assert.match(message, /targets\.desk\.start\.env\.COPY carries OPENAI_API_KEY's value \(not shown\)/);
  assert.match(message, /targets\.desk\.start\.env\.OTHER: \$\{NOT_SET\} names a variable the environment lacks/);
  assert.doesNotMatch(message, /sk-live-abcdef123/);
});

test("model without start, reuse with model, and reuse with {{port}} in ready or baseUrl are refused; a ready that is not a URL too", async () => {
  const message = await problemsOf({
    lone: { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000", model: {} },
    reused: desk({ model: {} }, { reuse: true, ready: "http://127.0.0.1:3000/health" }),
    lost: desk({}, { reuse: true }),
    broken: desk({}, { ready: "http://[oops:{{port}}/health" }),
  });
  assert.match(message, /targets\.lone\.model: a model is served only to an app flowcheck starts/);
  assert.match(
    message,
    /targets\.reused\.start\.reuse: a server already running was not started with the model flowcheck serves/,
  );
  assert.match(
    message,
    /targets\.lost\.start\.ready: \{\{port\}\} is chosen at start, so a server already running cannot be found there/,
  );
  assert.match(message, /targets\.lost\.baseUrl: \{\{port\}\} is chosen at start/);
  assert.match(
    message,
    /targets\.broken\.start\.ready: "http:\/\/\[oops:\{\{port\}\}\/health" is not an http:\/\/ or https:\/\/ URL/,
  );
});

test("the schema refuses a start without command or ready, an unknown key, and a model variable that is not a name", async () => {
  const message = await problemsOf({
    desk: {
      kind: "http",
      baseUrl: "http://127.0.0.1:1",
      start: { cwd: ".", restart: true },
      model: { keyEnv: "OPENAI KEY" },
      turn: { path: "/", body: {} },
      answer: { text: "/a" },
    },
  });
  assert.match(message, /targets\.desk\.start/);
  assert.match(message, /command/);
  assert.match(message, /ready/);
  assert.match(message, /restart/);
  assert.match(message, /targets\.desk\.model\.keyEnv/);
});
