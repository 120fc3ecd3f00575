import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

/** How long a started app's group has to stop on SIGTERM before it is killed. */
const STOP_GRACE_MILLIS = 3_000;
/** How long the rest of a group may take to go once killed. */
const GONE_MILLIS = 2_000;

/** `signal` to the process group `pid` leads; nothing when it has gone already. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has gone already.
  }
}

/** Whether any process of the group `pid` leads is still there. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the process group `child` leads: SIGTERM, SIGKILL after a grace if the leader still runs,
 * and resolves once the leader has exited and the rest of its group has gone. SIGKILL goes to the
 * group even when the leader stopped in time, so that nothing it started (the shell's command)
 * outlives it.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const { pid } = child;
  // Without a pid it never started; -0 would be this process's own group.
  if (pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, "exit");
  signalGroup(pid, "SIGTERM");
  const kill = setTimeout(() => signalGroup(pid, "SIGKILL"), STOP_GRACE_MILLIS);
  await exited;
  clearTimeout(kill);
  signalGroup(pid, "SIGKILL");
  const deadline = Date.now() + GONE_MILLIS;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(10);
}
