import assert from "node:assert/strict";
import { test } from "node:test";
import { RecentConversations, type RecentSession } from "../../src/engine/recent-conversations.ts";

function saved(id: string, turns = 1): RecentSession {
  return {
    document: {
      id,
      version: 1,
      turns,
      flow: { name: "BasicFlow", currentStep: "NameStep" },
      runStatus: "running",
      steps: {},
      children: [],
      createdAt: "2027-01-01T00:00:00.000Z",
      updatedAt: "2027-01-01T00:00:00.000Z",
      memory: {},
      execution: [],
    },
    mark: 7,
  };
}

test("a kept session is taken out once: a turn that fails after taking it leaves nothing behind", () => {
  const recent = new RecentConversations(10);
  const session = saved("a");
  recent.keep(session);
  assert.equal(recent.take("a"), session);
  assert.equal(recent.take("a"), undefined);
});

test("past the limit the least recently saved session goes first, and saving again makes a session recent", () => {
  const recent = new RecentConversations(2);
  recent.keep(saved("a"));
  recent.keep(saved("b"));
  recent.keep(saved("a", 2));
  recent.keep(saved("c"));
  assert.equal(recent.take("b"), undefined, "b was saved least recently");
  assert.equal(recent.take("a")?.document.turns, 2);
  assert.equal(recent.take("c")?.document.id, "c");
});
