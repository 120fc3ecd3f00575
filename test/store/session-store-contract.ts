import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isFlowcheckError } from "../../src/errors.ts";
import { SESSION_DOCUMENT_VERSION, type SessionHead, type TurnWrite } from "../../src/engine/session-document.ts";
import type { SessionStore } from "../../src/engine/session-store.ts";

export interface StoreUnderTest {
  store: SessionStore;
  /** Closes the store and removes what it made. */
  dispose(): Promise<void>;
}

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `00000000-0000-4000-8000-${String(nextId).padStart(12, "0")}`;
}

function head(id: string, turns: number, overrides: Partial<SessionHead> = {}): SessionHead {
  return {
    id,
    version: SESSION_DOCUMENT_VERSION,
    turns,
    flow: { name: "BasicFlow", currentStep: turns > 1 ? "WeatherStep" : "NameStep" },
    runStatus: "running",
    steps: { NameStep: { name: `turn ${turns}` } },
    children: [],
    createdAt: "2027-01-01T00:00:00.000Z",
    updatedAt: `2027-01-01T00:00:${String(turns).padStart(2, "0")}.000Z`,
    ...overrides,
  };
}

function turnWrite(id: string, turns: number, overrides: Partial<TurnWrite> = {}): TurnWrite {
  return {
    head: head(id, turns),
    baseTurns: turns - 1,
    memory: [
      { namespace: "NameStep", entry: { role: "user", content: `hello ${turns}` } },
      { namespace: "flow", entry: { role: "user", content: `hello ${turns}` } },
      { namespace: "NameStep", entry: { role: "assistant", content: `answer ${turns}` } },
      { namespace: "flow", entry: { role: "assistant", content: `answer ${turns}` } },
    ],
    execution: [{ seq: turns, turn: turns, step: "NameStep", kind: "tool", name: "save_name", outcome: "stay" }],
    ...overrides,
  };
}

async function rejectsWithConflict(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error) => isFlowcheckError(error, "session_conflict"));
}

/**
 * The behaviour every session store must have, written once and run against each backend.
 * `open` makes a fresh, empty store.
 */
export function describeSessionStoreContract(name: string, open: () => Promise<StoreUnderTest>, skip?: string): void {
  describe(`${name} session store contract`, { skip }, () => {
    let subject: StoreUnderTest;
    before(async () => {
      subject = await open();
    });
    after(async () => {
      await subject?.dispose();
    });

    test("fetching an unknown id returns undefined", async () => {
      assert.equal(await subject.store.fetchAll(newId()), undefined);
    });

    test("a created session is fetched whole: head, memory by namespace in order, execution in order", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      assert.deepEqual(await subject.store.fetchAll(id), {
        ...head(id, 1),
        memory: {
          NameStep: [
            { role: "user", content: "hello 1" },
            { role: "assistant", content: "answer 1" },
          ],
          flow: [
            { role: "user", content: "hello 1" },
            { role: "assistant", content: "answer 1" },
          ],
        },
        execution: [{ seq: 1, turn: 1, step: "NameStep", kind: "tool", name: "save_name", outcome: "stay" }],
      });
    });

    test("a saved turn replaces the head and appends its memory and execution after the earlier turns'", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      await subject.store.saveTurn(turnWrite(id, 2));
      const document = await subject.store.fetchAll(id);
      assert.equal(document?.turns, 2);
      assert.equal(document?.flow.currentStep, "WeatherStep");
      assert.deepEqual(document?.steps, { NameStep: { name: "turn 2" } });
      assert.deepEqual(
        document?.memory["flow"]?.map((entry) => entry.content),
        ["hello 1", "answer 1", "hello 2", "answer 2"],
      );
      assert.deepEqual(
        document?.execution.map((entry) => entry.seq),
        [1, 2],
      );
    });

    test("a turn based on a stale turn count is refused with session_conflict and changes nothing", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      await subject.store.saveTurn(turnWrite(id, 2));
      const before = await subject.store.fetchAll(id);
      await rejectsWithConflict(subject.store.saveTurn(turnWrite(id, 2)));
      assert.deepEqual(await subject.store.fetchAll(id), before);
    });

    test("creating an id that exists is refused with session_conflict and changes nothing", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      const before = await subject.store.fetchAll(id);
      await rejectsWithConflict(subject.store.create(turnWrite(id, 1, { head: head(id, 1, { runStatus: "failed" }) })));
      assert.deepEqual(await subject.store.fetchAll(id), before);
    });

    test("saving a turn of a session that was never created is refused and creates nothing", async () => {
      const id = newId();
      await rejectsWithConflict(subject.store.saveTurn(turnWrite(id, 2)));
      assert.equal(await subject.store.fetchAll(id), undefined);
    });

    test("a turn whose write fails part-way is not applied at all", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      const before = await subject.store.fetchAll(id);
      // The head serialises; the memory entry after it cannot (it refers to itself), so the write
      // fails after the head went in.
      const cycle: Record<string, unknown> = { role: "user", content: "loop" };
      cycle["self"] = cycle;
      const broken = turnWrite(id, 2, { memory: [{ namespace: "flow", entry: cycle as never }] });
      await assert.rejects(subject.store.saveTurn(broken));
      assert.deepEqual(await subject.store.fetchAll(id), before);
      assert.deepEqual(await subject.store.fetchHead(id), head(id, 1));
    });

    test("the head is fetched alone: what fetchAll returns, without memory and execution", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      await subject.store.saveTurn(turnWrite(id, 2));
      assert.deepEqual(await subject.store.fetchHead(id), head(id, 2));
      const { memory: _memory, execution: _execution, ...whole } = (await subject.store.fetchAll(id))!;
      assert.deepEqual(await subject.store.fetchHead(id), whole);
      assert.equal(await subject.store.fetchHead(newId()), undefined);
    });

    test("a keyed turn's answer is stored with the turn and fetched by its scope and key alone", async () => {
      const id = newId();
      const first = { scope: "", key: `start-${id}`, request: "f1", answer: { status: 200, body: ["a", "b"] } };
      const second = { scope: id, key: "turn-2", request: "f2", answer: { status: 200, body: "two" } };
      await subject.store.create(turnWrite(id, 1, { answer: first }));
      await subject.store.saveTurn(turnWrite(id, 2, { answer: second }));
      assert.deepEqual(await subject.store.fetchAnswer("", first.key), first);
      assert.deepEqual(await subject.store.fetchAnswer(id, "turn-2"), second);
      assert.equal(await subject.store.fetchAnswer(id, first.key), undefined);
      assert.equal(await subject.store.fetchAnswer(newId(), "turn-2"), undefined);
      // The session document is what it was: the answers are kept beside it.
      assert.deepEqual(await subject.store.fetchHead(id), head(id, 2));
    });

    test("a turn under a scope and key kept already is refused with session_conflict and changes nothing", async () => {
      const id = newId();
      const kept = { scope: id, key: "twice", request: "f", answer: "first" };
      await subject.store.create(turnWrite(id, 1));
      await subject.store.saveTurn(turnWrite(id, 2, { answer: kept }));
      const before = await subject.store.fetchAll(id);
      await rejectsWithConflict(subject.store.saveTurn(turnWrite(id, 3, { answer: { ...kept, answer: "second" } })));
      assert.deepEqual(await subject.store.fetchAll(id), before);
      assert.deepEqual(await subject.store.fetchAnswer(id, "twice"), kept);
    });

    test("a first turn under a key another session was started with is refused and creates nothing", async () => {
      const [one, other] = [newId(), newId()];
      const kept = { scope: "", key: `start-${one}`, request: "f", answer: "first" };
      await subject.store.create(turnWrite(one, 1, { answer: kept }));
      await rejectsWithConflict(subject.store.create(turnWrite(other, 1, { answer: { ...kept, answer: "second" } })));
      assert.equal(await subject.store.fetchAll(other), undefined);
      assert.deepEqual(await subject.store.fetchAnswer("", kept.key), kept);
    });

    test("a keyed turn whose write fails part-way keeps no answer", async () => {
      const id = newId();
      await subject.store.create(turnWrite(id, 1));
      const cycle: Record<string, unknown> = { role: "user", content: "loop" };
      cycle["self"] = cycle;
      const broken = turnWrite(id, 2, {
        memory: [{ namespace: "flow", entry: cycle as never }],
        answer: { scope: id, key: "lost", request: "f", answer: "never" },
      });
      await assert.rejects(subject.store.saveTurn(broken));
      assert.equal(await subject.store.fetchAnswer(id, "lost"), undefined);
      assert.deepEqual(await subject.store.fetchHead(id), head(id, 1));
    });

    test("a large document and a long conversation come back exactly as written", async () => {
      const id = newId();
      const big = {
        notes: "x".repeat(512 * 1024),
        nested: { list: Array.from({ length: 1000 }, (_, i) => ({ i, text: `item ${i}` })) },
      };
      await subject.store.create(turnWrite(id, 1, { head: head(id, 1, { steps: { NameStep: big } }) }));
      for (let turn = 2; turn <= 200; turn++)
        await subject.store.saveTurn(turnWrite(id, turn, { head: head(id, turn, { steps: { NameStep: big } }) }));
      const document = await subject.store.fetchAll(id);
      assert.deepEqual(document?.steps["NameStep"], big);
      assert.equal(document?.memory["flow"]?.length, 400);
      assert.deepEqual(
        document?.memory["flow"]?.filter((entry) => entry.role === "user").map((entry) => entry.content),
        Array.from({ length: 200 }, (_, i) => `hello ${i + 1}`),
      );
      assert.deepEqual(
        document?.execution.map((entry) => entry.seq),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      assert.deepEqual(await subject.store.fetchHead(id), head(id, 200, { steps: { NameStep: big } }));
    });
  });
}
