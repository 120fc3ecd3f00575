import assert from "node:assert/strict";
import { test } from "node:test";
import { PlayReach } from "../../../src/testing/run/play-reach.ts";

test("a play that may reach every step never waits for one", async () => {
  const reach = new PlayReach(Number.POSITIVE_INFINITY);
  assert.equal(reach.wants(1000), true);
  assert.equal(await reach.until(1000), true);
});

test("a step nobody asked for waits until it, or a later step, is asked for", async () => {
  const reach = new PlayReach(-1);
  assert.equal(reach.wants(0), false);
  const first = reach.until(0);
  const third = reach.until(2);
  let thirdSettled = false;
  void third.then(() => (thirdSettled = true));
  reach.want(1);
  assert.equal(await first, true);
  await Promise.resolve();
  assert.equal(thirdSettled, false);
  reach.want(2);
  assert.equal(await third, true);
  assert.equal(reach.wants(1), true);
});

test("once stopped, a step nobody asked for is never reached, and one asked for before still is", async () => {
  const reach = new PlayReach(-1);
  reach.want(1);
  const waiting = reach.until(3);
  reach.stop();
  assert.equal(await waiting, false);
  assert.equal(await reach.until(4), false);
  assert.equal(await reach.until(1), true);
});
