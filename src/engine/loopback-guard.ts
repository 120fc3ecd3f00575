import net from "node:net";
import { noteBlockedConnection } from "./blocked-connections.ts";

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

// One guard for the process, on while any holder wants it: holders lift it in any order.
const holders: string[] = [];
let unguarded: net.Socket["connect"] | undefined;

function guarded(this: net.Socket, ...args: unknown[]): net.Socket {
  const target = targetOf(args);
  // node:http's agent passes `path: null` for TCP, so only a non-empty string is an IPC path.
  const ipc = typeof target.path === "string" && target.path !== "";
  if (!ipc && !isLoopbackHost(target.host)) {
    noteBlockedConnection(`${target.host}:${String(target.port)}`);
    const modes = [...new Set(holders)].join(" and ");
    const error = Object.assign(
      new Error(
        `flowcheck refused an outbound connection to ${target.host}:${String(target.port)}: FLOW_MODEL=${modes} allows loopback only. ` +
          "Use FLOW_MODEL=live to reach a provider, or point the code at a server on 127.0.0.1.",
      ),
      { code: "ERR_FLOWCHECK_NETWORK_BLOCKED" },
    );
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return (unguarded as (...a: unknown[]) => net.Socket).apply(this, args);
}

/**
 * Refuses every TCP connection to a host that is not loopback, before any packet leaves: the
 * deterministic modes must never reach a provider. The refused socket fails with an error that
 * says which mode refused what. Returns the function that lifts this hold on the guard; the guard
 * goes when the last hold is lifted, whatever the order, and lifting twice is harmless.
 */
export function guardLoopbackOnly(mode: string): () => void {
  if (holders.length === 0) {
    unguarded = net.Socket.prototype.connect;
    net.Socket.prototype.connect = guarded as net.Socket["connect"];
  }
  holders.push(mode);
  let lifted = false;
  return () => {
    if (lifted) return;
    lifted = true;
    holders.splice(holders.indexOf(mode), 1);
    if (holders.length === 0) {
      net.Socket.prototype.connect = unguarded!;
      unguarded = undefined;
    }
  };
}
