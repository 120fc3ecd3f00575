import assert from "node:assert/strict";
import { test } from "node:test";
import {
  runScenario,
  type ConversationTurn,
  type ScenarioTarget,
  type ScenarioTurn,
  type SessionView,
} from "../../../src/testing/index.ts";
import { collect, fakeScenario } from "../../support/fake-chat-server.ts";

/** A chat kept in memory that echoes each message, its session a step and a count of what it heard. */
function echoTarget(): { target: ScenarioTarget; closed: { conversations: number; target: boolean } } {
  const heard = new Map<string, string[]>();
  const closed = { conversations: 0, target: false };
  const view = (id: string): SessionView | undefined => {
    const messages = heard.get(id);
    if (!messages) return undefined;
    return {
      id,
      version: messages.length,
      flow: { name: "EchoFlow", currentStep: "EchoStep" },
      runStatus: "running",
      steps: { EchoStep: { heard: messages.length } },
      children: [],
      createdAt: "",
      updatedAt: "",
      memory: {},
      execution: [],
    };
  };
  const send = async (turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn> => {
    const id = session ?? `echo-${heard.size + 1}`;
    const text = `you said: ${String(turn.input)}`;
    heard.set(id, [...(heard.get(id) ?? []), String(turn.input)]);
    return {
      exchange: {
        request: { method: "POST", path: "/echo", headers: {}, body: String(turn.input) },
        response: { status: 200, headers: {}, body: text },
        millis: 0,
      },
      answer: { mediaType: "text/plain", json: {}, events: undefined, text, problems: [], claimsOnly: true },
      session: id,
      checks: [{ contract: "transport", name: "status", outcome: "passed" }],
    };
  };
  const target: ScenarioTarget = {
    description: { baseUrl: "memory://echo", elsewhere: "the echo target", pins: {} },
    converse: () => ({ send, close: () => void closed.conversations++ }),
    sessions: { reader: { description: "the echo target's memory", fetchAll: async (id) => view(id) } },
    servingProblems: async () => [],
    close: async () => {
      closed.target = true;
    },
  };
  return { target, closed };
}

test("a target written by hand from flowcheck/testing plays a scenario: its own conversation, its sessions read after every turn", async () => {
  const { target, closed } = echoTarget();
  const loaded = fakeScenario(
    [
      {
        label: "hello",
        input: "hello",
        expectedActiveStep: "EchoStep",
        responseMustInclude: ["you said: hello"],
        expectState: { EchoStep: { heard: 1 } },
      },
      { label: "again", input: "again", expectedActiveStep: "EchoStep", expectState: { EchoStep: { heard: 2 } } },
    ],
    { flowName: "EchoFlow" },
  );
  const played = await collect(runScenario(loaded, target));
  await target.close();
  assert.deepEqual(
    played.turns.map((turn) => [turn.label, turn.outcome, turn.failure]),
    [
      ["hello", "passed", undefined],
      ["again", "passed", undefined],
    ],
  );
  assert.deepEqual(played.turns[1]!.stored?.steps, { EchoStep: { heard: 2 } });
  assert.equal(played.outcome, "passed");
  assert.deepEqual(closed, { conversations: 1, target: true });
});

test("a target without a capability a turn needs skips that turn, naming the target as it describes itself", async () => {
  const { target } = echoTarget();
  const loaded = fakeScenario(
    [
      { label: "restarted", input: "hello", expectedActiveStep: "EchoStep", restartBefore: true },
      { label: "failing model", input: "again", failModelCall: 1, expectedStatus: 500 },
    ],
    { flowName: "EchoFlow" },
  );
  const played = await collect(runScenario(loaded, target));
  await target.close();
  assert.deepEqual(played.turns[0]!.checks[0], {
    contract: "persisted",
    name: "restartBefore",
    outcome: "skipped",
    message:
      "the target runs elsewhere (the echo target) and cannot be restarted from here; the turn was played without a restart",
  });
  assert.deepEqual(
    [played.turns[1]!.outcome, played.turns[1]!.skipReason],
    [
      "skipped",
      `failModelCall needs the app in the test process, or a target whose model flowcheck serves (its entry's "start" and "model"); against the echo target the turn is not played`,
    ],
  );
});
