import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { KeyedMutex } from "../../src/engine/keyed-mutex.ts";

test("tasks on one key run one at a time in arrival order, even when later ones are quicker", async () => {
  const mutex = new KeyedMutex();
  const events: string[] = [];
  const task = (name: string, millis: number) => async () => {
    events.push(`start ${name}`);
    await sleep(millis);
    events.push(`end ${name}`);
    return name;
  };
  const results = await Promise.all([
    mutex.run("a", task("1", 15)),
    mutex.run("a", task("2", 1)),
    mutex.run("a", task("3", 5)),
  ]);
  assert.deepEqual(results, ["1", "2", "3"]);
  assert.deepEqual(events, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
});

test("a task that rejects or throws passes its error on and lets the next task of its key run", async () => {
  const mutex = new KeyedMutex();
  const rejected = mutex.run("a", () => Promise.reject(new Error("rejected")));
  const threw = mutex.run("a", () => {
    throw new Error("threw");
  });
  const next = mutex.run("a", async () => "ran");
  await assert.rejects(rejected, /rejected/);
  await assert.rejects(threw, /threw/);
  assert.equal(await next, "ran");
  // A key left idle by a synchronous throw is free again.
  const first = mutex.run("b", () => {
    throw new Error("threw at once");
  });
  await assert.rejects(first, /threw at once/);
  assert.equal(await mutex.run("b", async () => "free"), "free");
});

test("tasks on different keys do not wait for each other", async () => {
  const mutex = new KeyedMutex();
  let release!: () => void;
  const held = mutex.run("a", () => new Promise<string>((resolve) => (release = () => resolve("a"))));
  assert.equal(await mutex.run("b", async () => "b"), "b", "b ran while a was still running");
  const queued = mutex.run("a", async () => "a again");
  release();
  assert.deepEqual(await Promise.all([held, queued]), ["a", "a again"]);
});
