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

/**
 * Refuses every TCP connection to a host that is not loopback, before any packet leaves: the
 * deterministic modes must never reach a provider. The refused socket fails with an error that
 * says which mode refused what. Returns the function that lifts the guard.
 */
export function guardLoopbackOnly(mode: string): () => void {
  const connect = net.Socket.prototype.connect;
  const guarded = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const target = targetOf(args);
    // node:http's agent passes `path: null` for TCP, so only a non-empty string is an IPC path.
    const ipc = typeof target.path === "string" && target.path !== "";
    if (!ipc && !isLoopbackHost(target.host)) {
      noteBlockedConnection(`${target.host}:${String(target.port)}`);
      const error = Object.assign(
        new Error(
          `flowcheck refused an outbound connection to ${target.host}:${String(target.port)}: FLOW_MODEL=${mode} allows loopback only. ` +
            "Use FLOW_MODEL=live to reach a provider, or point the code at a server on 127.0.0.1.",
        ),
        { code: "ERR_FLOWCHECK_NETWORK_BLOCKED" },
      );
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  };
  net.Socket.prototype.connect = guarded as typeof connect;
  let lifted = false;
  return () => {
    if (lifted) return;
    if (net.Socket.prototype.connect !== (guarded as typeof connect)) {
      throw new Error("guardLoopbackOnly: lift the guards in the reverse order of installing them.");
    }
    net.Socket.prototype.connect = connect;
    lifted = true;
  };
}
