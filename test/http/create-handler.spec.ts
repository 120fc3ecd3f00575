import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { createApp, type App } from "../../src/create-app.ts";
import {
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
  type Script,
  type StepContext,
} from "../../src/engine/index.ts";
import type { HttpResponse } from "../../src/http/http-exchange.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { tempDir } from "../support/temp-path.ts";

const SECRET = "s3cret-table-users-at-10.1.2.3";

/** A one-step flow whose scripted model answers "hello", calls a throwing tool on "boom", and has no answer for anything else. */
class ProbeStep extends Step {
  systemPrompt(): string {
    return "You are the probe step. Answer hello; call explode on boom.";
  }

  @tool({
    name: "explode",
    description: "Always throws, like a bug in a tool.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  })
  explode(): never {
    throw new Error(`connection refused: ${SECRET}`);
  }
}

const ProbeFlow = defineFlow({
  name: "ProbeFlow",
  description: "A probe for the handler's error answers.",
  steps: [ProbeStep],
});

const probeScript: Script = ({ latest }) => {
  if (latest?.role !== "user") return undefined;
  if (latest.content === "hello") return scriptedText("Hi there.");
  if (latest.content === "boom") return scriptedToolCalls([{ name: "explode", args: {} }]);
  return undefined;
};

const probeEntry: FlowEntry = { flow: ProbeFlow, scripts: { ProbeFlow: probeScript } };

/** What a test's app serves unless it says otherwise. */
const FIXTURE_FLOWS: readonly FlowEntry[] = [basicFlowEntry, probeEntry];

interface Harness {
  app: App;
  logged: string[];
  /** POSTs a JSON body (or raw text) to /ai/chat. */
  chat(body: unknown, headers?: Record<string, string>): Promise<HttpResponse>;
  close(): Promise<void>;
}

async function harness(flows: readonly FlowEntry[]): Promise<Harness> {
  const dir = await tempDir("create-handler");
  const logged: string[] = [];
  const app = await createApp({
    flows,
    config: loadConfig({}),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
    log: (message) => logged.push(message),
  });
  return {
    app,
    logged,
    chat: (body, headers = {}) =>
      app.handler({
        method: "POST",
        url: "/ai/chat",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      dir.remove();
    },
  };
}

/** Runs `body` with a fresh app and always closes it. */
async function withApp(body: (h: Harness) => Promise<void>, flows = FIXTURE_FLOWS): Promise<void> {
  const h = await harness(flows);
  try {
    await body(h);
  } finally {
    await h.close();
  }
}

function json(response: HttpResponse): Record<string, any> {
  assert.equal(typeof response.body, "string", "a JSON answer has one string body");
  return JSON.parse(response.body as string) as Record<string, any>;
}

function assertError(response: HttpResponse, status: number, code: string): { code: string; message: string } {
  const body = json(response);
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status} ${response.body as string}`,
  );
  assert.equal(response.headers["Content-Type"], "application/json; charset=utf-8");
  assert.equal(body["success"], false);
  assert.equal(body["error"]?.code, code);
  assert.equal(typeof body["error"]?.message, "string");
  assert.ok((body["error"].message as string).length > 0);
  return body["error"] as { code: string; message: string };
}

/** Starts a BasicFlow session on NameStep with a placeholder name, which stays. */
async function startBasic(h: Harness): Promise<string> {
  const response = await h.chat({ flow: "BasicFlow", message: "John Doe" });
  assert.equal(response.status, 200, response.body as string);
  return json(response)["session"] as string;
}

/** Runs `action` against an existing session and checks the stored document did not change. */
async function unchanged(h: Harness, id: string, action: () => Promise<void>): Promise<void> {
  const before = await h.app.engine.fetchAll(id);
  assert.ok(before, `session ${id} is stored before the request`);
  await action();
  assert.deepStrictEqual(await h.app.engine.fetchAll(id), before);
}

test("GET /ai/flows lists the registered flows in order, each with its description and steps", async () => {
  await withApp(async (h) => {
    const response = await h.app.handler({ method: "GET", url: "/ai/flows", headers: {}, body: "" });
    assert.equal(response.status, 200);
    assert.equal(response.headers["Content-Type"], "application/json; charset=utf-8");
    assert.deepStrictEqual(json(response)["flows"], [
      {
        name: "BasicFlow",
        description: "Asks for a real name, reports the weather in two cities, and saves a validated US address.",
        steps: ["NameStep", "WeatherStep", "AddressStep"],
      },
      { name: "ProbeFlow", description: "A probe for the handler's error answers.", steps: ["ProbeStep"] },
    ]);
  });
});

test("an unknown path is answered 404 not_found", async () => {
  await withApp(async (h) => {
    const response = await h.app.handler({ method: "GET", url: "/ai/nothing?x=1", headers: {}, body: "" });
    const error = assertError(response, 404, "not_found");
    assert.match(error.message, /\/ai\/nothing/);
  });
});

test("a wrong method is answered 405 method_not_allowed with an Allow header", async () => {
  await withApp(async (h) => {
    const onChat = await h.app.handler({ method: "GET", url: "/ai/chat", headers: {}, body: "" });
    assertError(onChat, 405, "method_not_allowed");
    assert.equal(onChat.headers["Allow"], "POST");
    const onFlows = await h.app.handler({
      method: "POST",
      url: "/ai/flows",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assertError(onFlows, 405, "method_not_allowed");
    assert.equal(onFlows.headers["Allow"], "GET");
  });
});

test("a first message starts a session with one id in the body and the CHAT_SESSION_ID header", async () => {
  await withApp(async (h) => {
    const response = await h.chat({ flow: "BasicFlow", message: "John Doe" });
    assert.equal(response.status, 200);
    const body = json(response);
    assert.equal(body["success"], true);
    assert.match(body["session"], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(response.headers["CHAT_SESSION_ID"], body["session"]);
    assert.equal(body["currentStep"], "NameStep");
    assert.equal(body["runStatus"], "running");
    assert.equal(body["completed"], false);
    assert.match(body["response"], /"John Doe" looks like a placeholder/);
    const stored = await h.app.engine.fetchAll(body["session"]);
    assert.equal(stored?.turns, 1);
    assert.equal(stored?.flow.name, "BasicFlow");
  });
});

test("a resumed turn with the id in the header keeps the same session id", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    const response = await h.chat({ message: "John Wick" }, { chat_session_id: id });
    assert.equal(response.status, 200, response.body as string);
    const body = json(response);
    assert.equal(body["session"], id);
    assert.equal(response.headers["CHAT_SESSION_ID"], id);
    assert.equal(body["currentStep"], "WeatherStep");
    assert.equal((await h.app.engine.fetchAll(id))?.turns, 2);
  });
});

test("a resumed turn with the id as session in the body keeps the same session id", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    const response = await h.chat({ session: id, message: "John Wick" });
    assert.equal(response.status, 200, response.body as string);
    const body = json(response);
    assert.equal(body["session"], id);
    assert.equal(response.headers["CHAT_SESSION_ID"], id);
    assert.equal(body["currentStep"], "WeatherStep");
    assert.equal((await h.app.engine.fetchAll(id))?.turns, 2);
  });
});

test("a header id and a body id that differ are answered 400 invalid_request and change nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    const other = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat({ session: other, message: "John Wick" }, { chat_session_id: id }),
        400,
        "invalid_request",
      );
      assert.match(error.message, /differ/);
    });
    assert.equal((await h.app.engine.fetchAll(other))?.turns, 1);
  });
});

test("malformed JSON is answered 400 invalid_json and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      assertError(await h.chat('{"message": "John Wick"', { chat_session_id: id }), 400, "invalid_json");
    });
  });
});

test("a body without message is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(await h.chat({}, { chat_session_id: id }), 400, "invalid_request");
      assert.match(error.message, /"message" is missing/);
    });
  });
});

test("a message that is not a string is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(await h.chat({ message: 42 }, { chat_session_id: id }), 400, "invalid_request");
      assert.match(error.message, /"message" must be a string, got number/);
    });
  });
});

test("an empty or whitespace-only message is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      for (const message of ["", "   ", "\n\t "]) {
        const error = assertError(await h.chat({ message }, { chat_session_id: id }), 400, "invalid_request");
        assert.match(error.message, /"message" must not be empty or only spaces/);
      }
    });
  });
});

test("a message over 8000 characters is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat({ message: "a".repeat(8001) }, { chat_session_id: id }),
        400,
        "invalid_request",
      );
      assert.match(error.message, /8001 characters; at most 8000/);
    });
    // The limit itself passes validation and reaches the flow (whatever the flow then makes of it).
    const atLimit = await h.chat({ message: "b".repeat(8000) }, { chat_session_id: id });
    assert.notEqual(atLimit.status, 400, atLimit.body as string);
  });
});

test("an unknown body key is answered 400 invalid_request naming the key and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat({ message: "John Wick", sesion: id }, { chat_session_id: id }),
        400,
        "invalid_request",
      );
      assert.match(error.message, /"sesion" is not a known key/);
    });
  });
});

test("a JSON array body is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat([{ message: "John Wick" }], { chat_session_id: id }),
        400,
        "invalid_request",
      );
      assert.match(error.message, /must be a JSON object, got an array/);
    });
  });
});

test("a malformed session id in the header is answered 400 invalid_request", async () => {
  await withApp(async (h) => {
    const response = await h.chat({ message: "John Wick" }, { chat_session_id: "not-a-session" });
    const error = assertError(response, 400, "invalid_request");
    assert.match(error.message, /"not-a-session" is not a session id/);
    assert.equal(response.headers["CHAT_SESSION_ID"], undefined);
  });
});

test("a malformed session id in the body is answered 400 invalid_request", async () => {
  await withApp(async (h) => {
    const response = await h.chat({ session: "../../etc/passwd", message: "John Wick" });
    const error = assertError(response, 400, "invalid_request");
    assert.match(error.message, /"\.\.\/\.\.\/etc\/passwd" is not a session id/);
    assert.equal(response.headers["CHAT_SESSION_ID"], undefined);
  });
});

test("a first message without flow is answered 400 invalid_request listing the flows", async () => {
  await withApp(async (h) => {
    const error = assertError(await h.chat({ message: "John Doe" }), 400, "invalid_request");
    assert.match(error.message, /needs "flow"/);
    assert.match(error.message, /BasicFlow/);
  });
});

test("a session id sent with the name of another flow is answered 400 invalid_request and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat({ flow: "ProbeFlow", message: "hello" }, { chat_session_id: id }),
        400,
        "invalid_request",
      );
      assert.match(error.message, /belongs to BasicFlow, not ProbeFlow/);
    });
    // Naming the session's own flow is fine.
    const same = await h.chat({ flow: "BasicFlow", message: "Jane Doe" }, { chat_session_id: id });
    assert.equal(same.status, 200, same.body as string);
  });
});

test("an unknown flow is answered 404 unknown_flow listing the flows", async () => {
  await withApp(async (h) => {
    const error = assertError(await h.chat({ flow: "NoSuchFlow", message: "John Doe" }), 404, "unknown_flow");
    assert.match(error.message, /"NoSuchFlow"/);
    assert.match(error.message, /The flows are: BasicFlow, ProbeFlow\./);
  });
});

test("an id of no stored session is answered 404 session_not_found and stores nothing", async () => {
  await withApp(async (h) => {
    const id = "0b7f6a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
    const response = await h.chat({ message: "John Wick" }, { chat_session_id: id });
    const error = assertError(response, 404, "session_not_found");
    assert.match(error.message, new RegExp(id));
    assert.equal(await h.app.engine.fetchAll(id), undefined);
  });
});

test("a message to a completed session is answered 409 flow_completed and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    const answers: Record<string, any>[] = [];
    for (const message of ["John Wick", "LA, NYC", "1600 SW Murray Blvd, Beaverton, OR 97006"]) {
      const response = await h.chat({ message }, { chat_session_id: id });
      assert.equal(response.status, 200, response.body as string);
      answers.push(json(response));
    }
    assert.deepStrictEqual(
      answers.map((a) => [a["currentStep"], a["runStatus"], a["completed"]]),
      [
        ["WeatherStep", "running", false],
        ["AddressStep", "running", false],
        ["AddressStep", "completed", true],
      ],
    );
    await unchanged(h, id, async () => {
      const response = await h.chat({ message: "One more thing" }, { chat_session_id: id });
      const error = assertError(response, 409, "flow_completed");
      assert.match(error.message, /has ended/);
      assert.equal(json(response)["session"], id);
    });
  });
});

test("a body over 1 MiB is answered 413 body_too_large and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const body = JSON.stringify({ message: "x".repeat(1024 * 1024) });
      assertError(await h.chat(body, { chat_session_id: id }), 413, "body_too_large");
    });
  });
});

test("a body over 1 MiB counts bytes, not characters", async () => {
  await withApp(async (h) => {
    // 400,000 three-byte characters: 1.2 MB but fewer than 1 Mi characters.
    const body = JSON.stringify({ flow: "BasicFlow", message: "€".repeat(400_000) });
    assert.ok(body.length < 1024 * 1024);
    assertError(await h.chat(body), 413, "body_too_large");
  });
});

test("a text/plain body is answered 415 unsupported_media_type and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const error = assertError(
        await h.chat({ message: "John Wick" }, { chat_session_id: id, "content-type": "text/plain" }),
        415,
        "unsupported_media_type",
      );
      assert.match(error.message, /"text\/plain"/);
    });
  });
});

test("a body without Content-Type is answered 415 unsupported_media_type and changes nothing", async () => {
  await withApp(async (h) => {
    const id = await startBasic(h);
    await unchanged(h, id, async () => {
      const response = await h.app.handler({
        method: "POST",
        url: "/ai/chat",
        headers: { chat_session_id: id },
        body: JSON.stringify({ message: "John Wick" }),
      });
      const error = assertError(response, 415, "unsupported_media_type");
      assert.match(error.message, /missing/);
    });
  });
});

test("a JSON Content-Type with a charset parameter is accepted", async () => {
  await withApp(async (h) => {
    const response = await h.chat(
      { flow: "BasicFlow", message: "John Doe" },
      { "content-type": "Application/JSON; charset=utf-8" },
    );
    assert.equal(response.status, 200, response.body as string);
  });
});

test("a turn the scripted model has no answer for is answered 502 script_unmatched and changes nothing", async () => {
  await withApp(
    async (h) => {
      const started = await h.chat({ flow: "ProbeFlow", message: "hello" });
      assert.equal(started.status, 200, started.body as string);
      const id = json(started)["session"] as string;
      await unchanged(h, id, async () => {
        const response = await h.chat({ message: "something the script does not know" }, { chat_session_id: id });
        const error = assertError(response, 502, "script_unmatched");
        assert.match(error.message, /ProbeFlow has no answer for step ProbeStep/);
        assert.equal(json(response)["session"], id);
        assert.equal(response.headers["CHAT_SESSION_ID"], id);
      });
    },
    [probeEntry],
  );
});

test("a first turn the scripted model has no answer for is answered 502 script_unmatched and stores no session", async () => {
  await withApp(
    async (h) => {
      const response = await h.chat({ flow: "ProbeFlow", message: "unknown opener" });
      assertError(response, 502, "script_unmatched");
      assert.equal(json(response)["session"], undefined);
      assert.equal(response.headers["CHAT_SESSION_ID"], undefined);
    },
    [probeEntry],
  );
});

test("a tool that throws is answered 500 internal_error without leaking the error, is logged, and changes nothing", async () => {
  await withApp(
    async (h) => {
      const started = await h.chat({ flow: "ProbeFlow", message: "hello" });
      assert.equal(started.status, 200, started.body as string);
      const id = json(started)["session"] as string;
      await unchanged(h, id, async () => {
        const response = await h.chat({ message: "boom" }, { chat_session_id: id });
        const error = assertError(response, 500, "internal_error");
        assert.doesNotMatch(response.body as string, new RegExp(SECRET.replace(/\./g, "\\.")));
        assert.doesNotMatch(error.message, /connection refused|explode/);
        assert.match(error.message, /not applied/);
      });
      assert.equal(h.logged.length, 1);
      assert.match(h.logged[0]!, new RegExp(SECRET.replace(/\./g, "\\.")));
    },
    [probeEntry],
  );
});

test("a flow defect found mid-turn (an undeclared child flow) is answered 500 and reaches the log", async () => {
  class LoneStep extends Step {
    systemPrompt(): string {
      return "Lone step.";
    }
  }
  const Undeclared = defineFlow({
    name: "UndeclaredChild",
    description: "Never declared as a child.",
    steps: [LoneStep],
  });
  class ParentStep extends Step {
    systemPrompt(): string {
      return "Parent step: call spawn.";
    }

    @tool({
      name: "spawn",
      description: "Runs a child that the flow does not declare.",
      parameters: { type: "object", properties: {} },
    })
    async spawn(_args: unknown, context: StepContext) {
      await context.runChild(Undeclared, "hi");
      return stay("unreachable");
    }
  }
  const Parent = defineFlow({ name: "ParentFlow", description: "Runs an undeclared child.", steps: [ParentStep] });
  const entry: FlowEntry = {
    flow: Parent,
    scripts: { ParentFlow: () => scriptedToolCalls([{ name: "spawn", args: {} }]) },
  };
  await withApp(
    async (h) => {
      const response = await h.chat({ flow: "ParentFlow", message: "go" });
      assertError(response, 500, "internal_error");
      assert.equal(h.logged.length, 1);
      assert.match(h.logged[0]!, /does not list it; add it to "children"/);
    },
    [entry],
  );
});
