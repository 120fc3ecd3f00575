import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** How long a started app's group has to stop on SIGTERM before it is killed. */
const STOP_GRACE_MILLIS = 3_000;
/** How long the rest of a group may take to go once killed. */
const GONE_MILLIS = 2_000;
const POLL_MILLIS = 10;

/** `signal` to the process group `pid` leads; nothing when it has gone already. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has gone already.
  }
}

/**
 * Whether a process of the group `pid` leads still runs. An exited one stays in its group until its
 * parent reaps it, which for the shell's command is whoever adopted it, in its own time: where
 * /proc says so, such a zombie does not count.
 */
function groupRunning(pid: number): boolean {
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return true;
  }
  return entries.some((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command's name, in parentheses: state, parent, process group.
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(group) === pid && state !== "Z";
    } catch {
      return false;
    }
  });
}

/**
 * Stops the process group `child` leads: SIGTERM to the group, a grace while any of it still runs,
 * SIGKILL to what is left, and resolves once the leader has exited and the rest of its group has
 * gone. The leader is often the shell, which goes at once: the command it ran has the rest of the
 * grace to stop on its own before the group is killed.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const { pid } = child;
  // Without a pid it never started; -0 would be this process's own group.
  if (pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, "exit");
  signalGroup(pid, "SIGTERM");
  await waitWhileRunning(pid, STOP_GRACE_MILLIS);
  signalGroup(pid, "SIGKILL");
  // The leader's process is unref'd, so its exit alone holds nothing open: a timer waits with it,
  // cleared once the exit is seen so that it holds nothing open either.
  const waiting = new AbortController();
  const timer = sleep(GONE_MILLIS, undefined, { signal: waiting.signal }).catch(() => undefined);
  await Promise.race([exited, timer]);
  waiting.abort();
  await waitWhileRunning(pid, GONE_MILLIS);
}

async function waitWhileRunning(pid: number, millis: number): Promise<void> {
  const deadline = Date.now() + millis;
  while (groupRunning(pid) && Date.now() < deadline) await sleep(POLL_MILLIS);
}

/**
 * Stops the groups `pids` lead before this call returns, for a process about to end (on a signal,
 * at exit) that can wait for nothing: SIGTERM, a grace while any still runs, then SIGKILL.
 */
export function stopGroupsNow(pids: readonly number[]): void {
  for (const pid of pids) signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MILLIS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (pids.some(groupRunning) && Date.now() < deadline) Atomics.wait(pause, 0, 0, POLL_MILLIS);
  for (const pid of pids) signalGroup(pid, "SIGKILL");
}
