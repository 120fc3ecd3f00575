import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { mapInPool } from "../../../src/testing/strength/map-in-pool.ts";

test("a pool runs at most its size at once and returns the results in the items' order", async () => {
  let running = 0;
  let most = 0;
  const results = await mapInPool([30, 5, 20, 1, 10], 2, async (millis) => {
    most = Math.max(most, ++running);
    await sleep(millis);
    running--;
    return millis * 2;
  });
  assert.deepEqual(results, [60, 10, 40, 2, 20]);
  assert.equal(most, 2);
});

test("a failure stops the pool taking more items and is thrown once those under way have ended", async () => {
  const started: number[] = [];
  let ended = 0;
  const run = mapInPool([1, 2, 3, 4, 5], 2, async (item) => {
    started.push(item);
    await sleep(item === 1 ? 1 : 20);
    ended++;
    if (item === 1) throw new Error("item 1 failed");
    return item;
  });
  await assert.rejects(run, /item 1 failed/);
  assert.deepEqual(started, [1, 2]);
  assert.equal(ended, 2);
});
