import { AsyncLocalStorage } from "node:async_hooks";
import net from "node:net";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(?:\.\d{1,3}){3})$/i;

export function isLoopbackHost(host: string | undefined): boolean {
  // net.connect with no host connects to localhost.
  return host === undefined || host === "" || LOOPBACK.test(host);
}

function targetOf(args: unknown[]): { host: string | undefined; port: unknown; path: unknown } {
  const [first, second] = args;
  if (Array.isArray(first)) return targetOf(first);
  if (first !== null && typeof first === "object") {
    const options = first as { host?: string; port?: unknown; path?: unknown };
    return { host: options.host, port: options.port, path: options.path };
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return { host: undefined, port: undefined, path: first };
  return { host: typeof second === "string" ? second : undefined, port: first, path: undefined };
}

/** A guarded task's mode, and where the connections refused while it runs are noted. */
interface GuardedTask {
  mode: string;
  blocked: string[];
}

// Each guarded task (an app's turn) runs in its own context, so a connection is judged by the app
// whose turn made it and charged to that turn, even when turns of other apps and sessions run at
// the same time; anything else in the process connects as it would without a guard.
const running = new AsyncLocalStorage<GuardedTask>();

// The patch is the process's (every socket passes through Socket.prototype.connect); it is in
// place while any guard is held, and guards are lifted in any order.
let holds = 0;
let unguarded: net.Socket["connect"] | undefined;

function guarded(this: net.Socket, ...args: unknown[]): net.Socket {
  const task = running.getStore();
  if (task !== undefined) {
    const target = targetOf(args);
    // node:http's agent passes `path: null` for TCP, so only a non-empty string is an IPC path.
    const ipc = typeof target.path === "string" && target.path !== "";
    if (!ipc && !isLoopbackHost(target.host)) {
      const where = `${target.host}:${String(target.port)}`;
      task.blocked.push(where);
      const error = Object.assign(
        new Error(
          `flowcheck refused an outbound connection to ${where}: FLOW_MODEL=${task.mode} allows loopback only. ` +
            "Use FLOW_MODEL=live to reach a provider, or point the code at a server on 127.0.0.1.",
        ),
        { code: "ERR_FLOWCHECK_NETWORK_BLOCKED" },
      );
      process.nextTick(() => this.destroy(error));
      return this;
    }
  }
  return (unguarded as (...a: unknown[]) => net.Socket).apply(this, args);
}

/** One app's hold on the loopback guard; see `guardLoopbackOnly`. */
export interface LoopbackGuard {
  /**
   * Runs `task` with every TCP connection it makes (it and whatever it starts) to a host that is not
   * loopback refused before any packet leaves; each refused `host:port` is pushed to `blocked`.
   * Returns the task's own promise: a turn pays for no promise of this module's.
   */
  run<T>(blocked: string[], task: () => Promise<T>): Promise<T>;
  /** Lets go of the guard; the patch goes when the last guard is lifted. Lifting twice is harmless. */
  lift(): void;
}

/**
 * The guard of an app whose flows all run in a deterministic mode (`mode`, named in the refusal):
 * they must never reach a provider. Only the tasks it runs (the app's turns) are guarded, so a live
 * app in the same process, or the run's judge, connects as it would alone.
 */
export function guardLoopbackOnly(mode: string): LoopbackGuard {
  if (holds++ === 0) {
    unguarded = net.Socket.prototype.connect;
    net.Socket.prototype.connect = guarded as net.Socket["connect"];
  }
  let lifted = false;
  return {
    // A lifted guard refuses nothing, whether or not another app still holds the patch.
    run: (blocked, task) => (lifted ? task() : running.run({ mode, blocked }, task)),
    lift: () => {
      if (lifted) return;
      lifted = true;
      if (--holds === 0) {
        net.Socket.prototype.connect = unguarded!;
        unguarded = undefined;
      }
    },
  };
}
