import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openAIJudgeClient } from "../../../src/testing/judge/judge-client.ts";
import { createLlmJudge } from "../../../src/testing/judge/llm-judge.ts";
import type { Scenario, ScenarioTurn, TurnReport } from "../../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry, basicFlowScripts } from "../../fixtures/flows/index.ts";
import { type CompletionRequest, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { fakeOpenAIPerFile } from "../../support/fake-openai-per-file.ts";
import { jsonClient } from "../../support/json-client.ts";
import { tempDir } from "../../support/temp-path.ts";
import { startTestServer } from "../../support/test-server.ts";
import {
  BASIC_FLOW_FILE,
  JUDGE_TESTS,
  readBasicFlow,
  result,
  runSpec,
  tapResults,
  writeSpec,
} from "../../support/child-run.ts";

// What goes over the wire to an OpenAI-compatible server: the judge's request (model, temperature
// 0, a JSON object answer, the rules with the flow's own, and the turn's texts as one JSON object)
// and a live step's.

let fake: FakeOpenAI;
fakeOpenAIPerFile(Object.values(basicFlowScripts), (started) => (fake = started));

const RULES_START = "You grade one answer of a conversational assistant against an expectation a test author wrote.\n";
const NAME_PROMPT =
  "You collect the user's real full name. When the user gives a name, call save_name with it. " +
  "If the tool says the name is a placeholder, say so, quoting the name, and ask for their real name.";
const REJECTED = 'Sorry, "John Doe" looks like a placeholder. What is your real name?';
const GREETED = "Nice to meet you, John Wick. Which two cities should I check? Give two aliases, like LA, NYC.";

const isJudge = (request: CompletionRequest) => request.response_format?.type === "json_object";

describe("the judge's request", () => {
  test("has the judge model, temperature 0, a JSON object answer, the flow's judgeInstructions after the rules, and the conversation, input, answer and expectation as one JSON object", async () => {
    const turn: ScenarioTurn = {
      label: "name accepted",
      input: "John Wick",
      expectedResponse: "The assistant should greet John Wick and ask for two city aliases.",
    };
    const scenario: Scenario = {
      flowName: "BasicFlow",
      judgeInstructions: "  Ignore markdown formatting differences. Accept 2027 dates.\n",
      turns: [{ label: "name rejected", input: "John Doe" }, turn],
    };
    const history: TurnReport[] = [
      { number: 1, label: "name rejected", input: "John Doe", answer: REJECTED, outcome: "passed", checks: [] },
      // A turn with no answer (the request failed) is not part of the conversation shown.
      { number: 2, label: "lost", input: "hello?", outcome: "failed", checks: [] },
    ];
    const judge = createLlmJudge({
      client: openAIJudgeClient({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, timeoutMs: 5000 }),
      model: "judge-model",
    });
    const check = await judge({
      scenario,
      turn,
      answer: {
        mediaType: "application/json",
        json: { response: GREETED },
        events: undefined,
        text: GREETED,
        problems: [],
      },
      history,
    });
    assert.equal(check.outcome, "passed", check.message);

    assert.equal(fake.requests.length, 1);
    const request = fake.requests[0]!;
    assert.deepEqual(Object.keys(request).sort(), ["messages", "model", "response_format", "temperature"]);
    assert.equal(request.model, "judge-model");
    assert.equal(request.temperature, 0);
    assert.deepEqual(request.response_format, { type: "json_object" });
    assert.deepEqual(
      request.messages.map((m) => m.role),
      ["system", "user"],
    );
    const system = request.messages[0]!.content!;
    assert.ok(system.startsWith(RULES_START), system);
    assert.match(
      system,
      /Reply with one JSON object and nothing else:\n\{"pass": true\|false, "score": 0\.\.1, "reason": "…", "missing": \["…"\], "contradictions": \["…"\]\}/,
    );
    assert.ok(
      system.endsWith(
        "\nRules for this flow, which override the ones above:\nIgnore markdown formatting differences. Accept 2027 dates.",
      ),
      system,
    );
    assert.equal(
      request.messages[1]!.content,
      JSON.stringify(
        {
          conversation: [{ user: "John Doe", assistant: REJECTED }],
          latestUserMessage: "John Wick",
          answer: GREETED,
          expectation: "The assistant should greet John Wick and ask for two city aliases.",
        },
        null,
        2,
      ),
    );
  });

  test("uses the scenario's judgeModel over the configured one, and says when there is no conversation yet", async () => {
    const turn: ScenarioTurn = { label: "name rejected", input: "John Doe", expectedResponse: "Rejects John Doe." };
    const judge = createLlmJudge({
      client: openAIJudgeClient({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, timeoutMs: 5000 }),
      model: "judge-model",
    });
    await judge({
      scenario: { flowName: "BasicFlow", judgeModel: "scenario-judge", turns: [turn] },
      turn,
      answer: {
        mediaType: "application/json",
        json: { response: REJECTED },
        events: undefined,
        text: REJECTED,
        problems: [],
      },
      history: [],
    });
    assert.equal(fake.requests[0]?.model, "scenario-judge");
    assert.ok(
      fake.requests[0]!.messages[0]!.content!.endsWith("- reason: one or two sentences the test author can act on."),
      "no flow rules appended",
    );
    assert.deepEqual(JSON.parse(fake.requests[0]!.messages[1]!.content!), {
      conversation: [],
      latestUserMessage: "John Doe",
      answer: REJECTED,
      expectation: "Rejects John Doe.",
    });
  });

  test("in a scenario run, each judged turn sends JUDGE_MODEL, the scenario's judgeInstructions and the conversation up to that turn", async (t) => {
    const dir = await tempDir("live-wire");
    try {
      const run = await runSpec(
        writeSpec(dir.path, BASIC_FLOW_FILE, join(dir.path, "artifacts")),
        {
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: fake.baseURL,
          JUDGE_MODEL: "judge-under-test",
          JUDGE_CACHE: "off",
        },
        t.signal,
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      for (const name of JUDGE_TESTS)
        assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);

      // The flow runs scripted: every request the fake saw is the judge's.
      assert.equal(fake.requests.length, 5);
      const instructions = readBasicFlow().judgeInstructions!;
      for (const request of fake.requests) {
        assert.ok(isJudge(request));
        assert.equal(request.model, "judge-under-test");
        assert.equal(request.temperature, 0);
        assert.ok(request.messages[0]!.content!.startsWith(RULES_START));
        assert.ok(
          request.messages[0]!.content!.endsWith(
            `\nRules for this flow, which override the ones above:\n${instructions}`,
          ),
        );
      }
      const second = JSON.parse(fake.requests[1]!.messages[1]!.content!) as Record<string, unknown>;
      assert.deepEqual(second["conversation"], [{ user: "John Doe", assistant: REJECTED }]);
      assert.equal(second["latestUserMessage"], "John Wick");
      assert.equal(second["answer"], GREETED);
      assert.equal(
        fake.requests[4]!.messages[1]!.content,
        JSON.stringify(
          {
            conversation: [
              { user: "John Doe", assistant: REJECTED },
              { user: "John Wick", assistant: GREETED },
              {
                user: "LA, NYC",
                assistant: "Today: LA 72°F, NYC 64°F. What is your US postal address, with the ZIP code?",
              },
              {
                user: "1600 SW Murray Blvd, Beaverton, OR 9700",
                assistant:
                  'I couldn\'t use that address: The ZIP code "9700" is not 5 digits (or ZIP+4). Please send a corrected address.',
              },
            ],
            latestUserMessage: "1600 sw murray blvd, beaverton, oregon 97006",
            answer: "Thank you! Your address 1600 SW Murray Blvd, Beaverton, OR 97006 is saved. That's everything.",
            expectation: "The assistant should confirm the address in Beaverton, OR 97006 and close the conversation.",
          },
          null,
          2,
        ),
      );
    } finally {
      dir.remove();
    }
  });
});

describe("a live step's model request", () => {
  test("has the model from OPENAI_MODEL, the step's system prompt first, and the step's tools as functions", async () => {
    const server = await startTestServer({
      flows: [basicFlowEntry],
      env: {
        FLOW_MODEL: "live",
        OPENAI_API_KEY: "test-key",
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_MODEL: "wire-model",
        OPENAI_MAX_RETRIES: "0",
        OPENAI_TIMEOUT_MS: "5000",
      },
    });
    const client = jsonClient(server.url);
    try {
      const answer = await client.post("/ai/chat", { flow: "BasicFlow", message: "John Doe" });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body["response"], REJECTED);

      // save_name, then the answer after the tool's refusal.
      assert.equal(fake.requests.length, 2);
      const tools = [
        {
          type: "function",
          function: {
            name: "save_name",
            description: "Save the user's real full name.",
            parameters: {
              type: "object",
              properties: { name: { type: "string", minLength: 1, maxLength: 100 } },
              required: ["name"],
              additionalProperties: false,
            },
          },
        },
      ];
      assert.deepEqual(
        tools.map((tool) => tool.function.name),
        BasicFlow.tools("NameStep").map((tool) => tool.name),
      );
      for (const request of fake.requests) {
        assert.equal(request.model, "wire-model");
        assert.deepEqual(request.messages[0], { role: "system", content: NAME_PROMPT });
        assert.deepEqual(request.tools, tools);
        assert.equal(request.response_format, undefined);
      }
      assert.deepEqual(fake.requests[0]!.messages.slice(1), [{ role: "user", content: "John Doe" }]);
      assert.deepEqual(
        fake.requests[1]!.messages.map((m) => m.role),
        ["system", "user", "assistant", "tool"],
      );
    } finally {
      client.close();
      await server.close();
    }
  });
});
