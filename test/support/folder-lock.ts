import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MILLIS = 100;

// A lock whose folder has stood this long without its holder's pid was left by a process that died
// between making it and writing it.
const UNCLAIMED_MILLIS = 60_000;

/** Whether the process that took `lock` is gone, so that the lock can be taken from it. */
function abandoned(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > UNCLAIMED_MILLIS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Runs `work` while this process holds `lock`, a folder only one process at a time can make: specs
 * that touch the same files from the processes of one run (`flowcheck test --workers`) take turns.
 * A lock whose process died is taken over.
 */
export async function withFolderLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(POLL_MILLIS);
    }
  }
  try {
    writeFileSync(join(lock, "pid"), String(process.pid));
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
