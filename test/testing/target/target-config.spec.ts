import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import configSchema from "../../../flowcheck.config.schema.json" with { type: "json" };
import { FlowcheckError } from "../../../src/errors.ts";
import { loadTargetConfig, type TargetConfig } from "../../../src/testing/target/target-config.ts";
import { tempDir } from "../../support/temp-path.ts";

const FIXTURES = resolve(import.meta.dirname, "..", "..", "fixtures", "target-config");
const PROVIDER_KEY = "sk-provider-0123456789abcdef";

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("target-config");
});
after(() => dir.remove());

let written = 0;
/** A project root in the temp folder whose flowcheck.config.json is `content` (an object as JSON, or a text as is). */
function root(content: unknown): string {
  const path = join(dir.path, `root-${++written}`);
  const file = join(path, "flowcheck.config.json");
  mkdirSync(path, { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** One flowcheck target, `extra` over it. */
function flowcheckTarget(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000", ...extra };
}

/** Loads the config at `path`, which must be refused with one target_config_invalid error; returns its problems. */
function problemsOf(path: string, env: Record<string, string | undefined> = {}): string[] {
  try {
    loadTargetConfig(path, env);
  } catch (error) {
    assert.ok(error instanceof FlowcheckError, String(error));
    assert.equal(error.code, "target_config_invalid");
    const problems = error.details as string[];
    assert.ok(error.message.includes("flowcheck.config.json is not a valid flowcheck.config.json"), error.message);
    assert.ok(error.message.includes(`(${problems.length} problem${problems.length === 1 ? "" : "s"})`));
    for (const problem of problems) assert.ok(error.message.includes(`\n- ${problem}`), problem);
    return problems;
  }
  assert.fail(`${path} was accepted`);
}

test("flowcheck.config.schema.json is a valid JSON Schema 2020-12 document, every key of it described", () => {
  const ajv = new Ajv2020({ strict: true });
  assert.equal(ajv.validateSchema(configSchema), true, JSON.stringify(ajv.errors));
  const undescribed: string[] = [];
  const walk = (schema: unknown, path: string): void => {
    if (schema === null || typeof schema !== "object") return;
    const node = schema as Record<string, unknown>;
    for (const [key, value] of Object.entries((node["properties"] ?? {}) as Record<string, unknown>)) {
      if (typeof (value as { description?: unknown }).description !== "string") undescribed.push(`${path}/${key}`);
    }
    // An `if` only tells the kinds apart; its keys are described where the kind's are.
    for (const [key, value] of Object.entries(node)) if (key !== "if") walk(value, `${path}/${key}`);
  };
  walk(configSchema, "");
  assert.deepEqual(undescribed, []);
});

test("a root without flowcheck.config.json has no target config", () => {
  assert.equal(loadTargetConfig(join(FIXTURES, "no-such-root"), {}), undefined);
});

test("a flowcheck target loads to its typed value, ${VAR} in baseUrl and headers read from the environment, frozen", () => {
  const root = join(FIXTURES, "flowcheck");
  const config = loadTargetConfig(root, { STAGING_HOST: "flows.staging.test", STAGING_API_TOKEN: "tok-staging-1234" });
  assert.deepEqual(config, {
    path: join(root, "flowcheck.config.json"),
    targets: {
      staging: {
        kind: "flowcheck",
        baseUrl: "https://flows.staging.test/flows",
        timeoutMs: 10000,
        headers: { Authorization: "Bearer tok-staging-1234", "X-Team": "support" },
        sqlitePath: "data/staging.sqlite",
      },
      local: { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000" },
    },
  } satisfies TargetConfig);
  assert.ok(Object.isFrozen(config) && Object.isFrozen(config?.targets["staging"]?.headers));
});

test("a langgraph target loads to its typed value, with its graphs' pointers and steps", () => {
  const root = join(FIXTURES, "langgraph");
  assert.deepEqual(loadTargetConfig(root, { LANGSMITH_API_KEY: "lsv2-key-abcdef" }), {
    path: join(root, "flowcheck.config.json"),
    targets: {
      graphs: {
        kind: "langgraph",
        baseUrl: "http://127.0.0.1:2024",
        headers: { "X-Api-Key": "lsv2-key-abcdef" },
        graphs: {
          SupportFlow: { step: "/step", completed: "/done", steps: ["TriageStep", "AnswerStep"] },
          EmptyGraph: {},
        },
      },
    },
  } satisfies TargetConfig);
});

test("an http target loads to its typed value; its templates, pointers and a ${VAR} in its body are left as written", () => {
  const root = join(FIXTURES, "http");
  assert.deepEqual(loadTargetConfig(root, { SUPPORT_API_TOKEN: "tok-support-5678", LEFT_AS_WRITTEN: "no" }), {
    path: join(root, "flowcheck.config.json"),
    targets: {
      "support-api": {
        kind: "http",
        baseUrl: "https://support.staging.example.com",
        headers: { Authorization: "Bearer tok-support-5678" },
        turn: {
          method: "PUT",
          path: "/chat/{{session}}",
          body: { message: "{{input}}", history: "{{messages}}", note: "${LEFT_AS_WRITTEN}" },
        },
        answer: {
          stream: "openai-chat",
          text: "/reply/text",
          sessionHeader: "X-Session-Id",
          step: "/meta/step",
          completed: "/meta/done",
        },
        state: { path: "/sessions/{{session}}", step: "/step", completed: "/done", state: "/data~1steps" },
        flows: { SupportFlow: { steps: ["TriageStep", "AnswerStep"] } },
      },
    },
  } satisfies TargetConfig);
});

test("a file with three problems (a typo'd key, a pointer that is not one, a variable the environment lacks) reports all three in one error", () => {
  assert.deepEqual(problemsOf(join(FIXTURES, "three-problems")), [
    "targets.support-api.timeoutMS: `timeoutMS` is not a known key; did you mean `timeoutMs`?",
    'targets.support-api.answer.text: "reply.text" is not a JSON Pointer such as /state/step (each part after a /, with ~0 for ~ and ~1 for /).',
    "targets.support-api.headers.Authorization: ${SUPPORT_API_TOKEN} names a variable the environment lacks; set SUPPORT_API_TOKEN in the environment the run starts in (exported, or a CI secret).",
  ]);
});

test("a wrong key of an http target is one problem naming the key meant, not a list of the other kinds' keys", () => {
  const path = root({
    targets: {
      api: {
        kind: "http",
        baseUrl: "http://127.0.0.1:4000",
        turn: { path: "/chat", body: "{{input}}" },
        answer: { sesionHeader: "X-Session-Id" },
      },
    },
  });
  assert.deepEqual(problemsOf(path), [
    "targets.api.answer.sesionHeader: `sesionHeader` is not a known key; did you mean `sessionHeader`?",
  ]);
});

test("a mastra target takes a mode of stream or generate, a resource and a working-memory pointer, and no key of another kind", () => {
  const desk = { kind: "mastra", baseUrl: "http://127.0.0.1:4111" };
  const valid = root({ targets: { desk: { ...desk, mode: "generate", resource: "team", workingMemory: "/profile" } } });
  assert.equal(loadTargetConfig(valid, {})?.targets["desk"]?.kind, "mastra");
  const path = root({ targets: { desk: { ...desk, mode: "batch", workingMemory: "profile", graphs: {} } } });
  assert.deepEqual(problemsOf(path), [
    "targets.desk.graphs: `graphs` is not a known key; the keys allowed here are kind, baseUrl, timeoutMs, headers, start, model, mode, resource, workingMemory.",
    'targets.desk.mode: "batch" is not one of "stream", "generate".',
    'targets.desk.workingMemory: "profile" is not a JSON Pointer such as /state/step (each part after a /, with ~0 for ~ and ~1 for /).',
  ]);
});

test("a key of another kind, a missing kind, an unknown kind and a target that is no object are each one problem", () => {
  const path = root({
    targets: {
      a: flowcheckTarget({ graphs: {} }),
      b: { baseUrl: "http://127.0.0.1:3000" },
      c: flowcheckTarget({ kind: "langchain" }),
      d: "http://127.0.0.1:3000",
    },
  });
  assert.deepEqual(problemsOf(path), [
    "targets.a.graphs: `graphs` is not a known key; the keys allowed here are kind, baseUrl, timeoutMs, headers, start, model, sqlitePath.",
    "targets.b: the required key `kind` is missing.",
    'targets.c.kind: "langchain" is not one of "flowcheck", "langgraph", "http", "ai-sdk", "mastra".',
    'targets.d: "http://127.0.0.1:3000" is a string; expected object.',
  ]);
});

test("values of the wrong type are refused with the value found and the type expected, and an http target's required keys are named", () => {
  const path = root({
    extra: true,
    targets: {
      a: flowcheckTarget({ timeoutMs: "30s", headers: { "X-Team": 7, "Bad Name": "x" } }),
      b: { kind: "http", baseUrl: "ftp://127.0.0.1" },
      "Not-A-Name": flowcheckTarget(),
    },
  });
  assert.deepEqual(problemsOf(path), [
    "extra: `extra` is not a known key; the keys allowed here are $schema, targets, flows, strength.",
    'targets.Not-A-Name: the key "Not-A-Name" is not lower-case letters, digits and dashes.',
    'targets.a.timeoutMs: "30s" is a string; expected integer.',
    'targets.a.headers.Bad Name: the key "Bad Name" is not a header name such as X-Api-Key.',
    "targets.a.headers.X-Team: 7 is a number; expected string.",
    "targets.b: the required key `turn` is missing.",
    "targets.b: the required key `answer` is missing.",
    'targets.b.baseUrl: "ftp://127.0.0.1" is not an http:// or https:// URL, or a ${VAR} reference that holds one.',
  ]);
});

test("a file that is not JSON is refused with the line and column of the mistake", () => {
  const [problem, ...more] = problemsOf(join(FIXTURES, "not-json"));
  assert.deepEqual(more, []);
  assert.match(problem!, /^the file is not valid JSON at line 4, column 3: /);
});

test("a ${VAR} the environment lacks, or holds empty, is refused naming the variable, where it is and that it must be set", () => {
  const path = root({
    targets: {
      a: flowcheckTarget({ baseUrl: "${STAGING_URL}", headers: { "X-Team": "${TEAM}", "X-Odd": "${not a name}" } }),
    },
  });
  assert.deepEqual(problemsOf(path, { TEAM: "" }), [
    "targets.a.baseUrl: ${STAGING_URL} names a variable the environment lacks; set STAGING_URL in the environment the run starts in (exported, or a CI secret).",
    "targets.a.headers.X-Team: ${TEAM} names a variable the environment lacks; set TEAM in the environment the run starts in (exported, or a CI secret).",
    'targets.a.headers.X-Odd: "${not a name}" is not a reference; write ${NAME}, NAME being a variable\'s name.',
  ]);
});

test("a credential header written as a value is refused without showing it, for each name a credential goes by", () => {
  const secret = "literal-secret-0123456789";
  const names = [
    "Authorization",
    "proxy-authorization",
    "Cookie",
    "X-Api-Key",
    "api-key",
    "X-Auth-Token",
    "X-Client-Secret",
    "X-Signing-Key",
  ];
  const headers = Object.fromEntries(
    names.map((name) => [name, name === "Authorization" ? `Bearer ${secret}` : secret]),
  );
  const path = root({ targets: { support: flowcheckTarget({ headers: { ...headers, "X-Team": "support" } }) } });
  const problems = problemsOf(path);
  assert.equal(problems.length, names.length, problems.join("\n"));
  assert.equal(
    problems[0],
    'targets.support.headers.Authorization is a credential written into the file (its value is not shown); write it as "Bearer ${SUPPORT_API_TOKEN}" and set that variable in the run\'s environment.',
  );
  assert.equal(
    problems[3],
    'targets.support.headers.X-Api-Key is a credential written into the file (its value is not shown); write it as "${SUPPORT_API_KEY}" and set that variable in the run\'s environment.',
  );
  names.forEach((name, index) =>
    assert.ok(problems[index]!.startsWith(`targets.support.headers.${name} is a credential`)),
  );
  assert.ok(!problems.join("\n").includes(secret));
});

test("the provider's key may not be a target's credential: neither by reference nor by its value, which is not shown", () => {
  const path = root({
    targets: {
      a: flowcheckTarget({ headers: { Authorization: "Bearer ${OPENAI_API_KEY}" } }),
      b: flowcheckTarget({ headers: { "X-Api-Key": "${TEAM_KEY}" } }),
    },
  });
  const problems = problemsOf(path, { OPENAI_API_KEY: PROVIDER_KEY, TEAM_KEY: PROVIDER_KEY });
  assert.deepEqual(problems, [
    "targets.a.headers.Authorization: ${OPENAI_API_KEY} is the provider's key, which goes to the provider alone; give the target a credential of its own, e.g. ${STAGING_API_TOKEN}.",
    "targets.b.headers.X-Api-Key carries OPENAI_API_KEY's value (not shown), which would send the provider's key to the target; give the target a credential of its own.",
  ]);
  assert.ok(!problems.join("\n").includes(PROVIDER_KEY));
});

test("a baseUrl that reads as no http(s) URL, or carries a password, is refused", () => {
  const path = root({
    targets: {
      a: flowcheckTarget({ baseUrl: "${STAGING_URL}" }),
      b: flowcheckTarget({ baseUrl: "https://robot:${STAGING_PASSWORD}@staging.test" }),
    },
  });
  assert.deepEqual(problemsOf(path, { STAGING_URL: "staging.test", STAGING_PASSWORD: "pw-0123456789" }), [
    'targets.a.baseUrl: "${STAGING_URL}" reads "staging.test", which is not an http:// or https:// URL.',
    'targets.b.baseUrl: the URL carries a user name or password (not shown); send a credential as a header, e.g. "Authorization": "Bearer ${SUPPORT_API_TOKEN}".',
  ]);
});

test("an ai-sdk target needs only its baseUrl, and a body that sets the chat's own fields or a send of another form is refused, saying whose the field is", () => {
  const ok = root({ targets: { chat: { kind: "ai-sdk", baseUrl: "http://127.0.0.1:3000" } } });
  assert.deepEqual(loadTargetConfig(ok, {})?.targets["chat"], { kind: "ai-sdk", baseUrl: "http://127.0.0.1:3000" });
  const path = root({
    targets: {
      chat: {
        kind: "ai-sdk",
        baseUrl: "http://127.0.0.1:3000",
        send: "first",
        body: { locale: "en", messages: [] },
      },
    },
  });
  assert.deepEqual(problemsOf(path), [
    'targets.chat.send: "first" is not one of "all", "last".',
    "targets.chat.body.messages: may not be set here, so [] is refused. The chat's messages, which flowcheck keeps as useChat keeps them.",
  ]);
});
