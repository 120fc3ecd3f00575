import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { withFolderLock } from "./folder-lock.ts";
import { tempDir } from "./temp-path.ts";

test("two holders of one folder lock take turns, and the lock is gone after", async (t) => {
  const dir = await tempDir("folder-lock");
  t.after(dir.remove);
  const lock = join(dir.path, "a.lock");
  const told: string[] = [];
  const hold = (name: string) =>
    withFolderLock(lock, async () => {
      told.push(`${name} in`);
      await sleep(150);
      told.push(`${name} out`);
    });

  await Promise.all([hold("first"), hold("second")]);

  assert.deepEqual(told, ["first in", "first out", "second in", "second out"]);
  assert.equal(existsSync(lock), false);
});

test("a lock left by a process that is gone is taken over", async (t) => {
  const dir = await tempDir("folder-lock");
  t.after(dir.remove);
  const lock = join(dir.path, "a.lock");
  const gone = spawnSync(process.execPath, ["-e", "0"]);
  assert.equal(gone.status, 0);
  mkdirSync(lock);
  writeFileSync(join(lock, "pid"), String(gone.pid));

  const result = await withFolderLock(lock, async () => "taken");

  assert.equal(result, "taken");
});
