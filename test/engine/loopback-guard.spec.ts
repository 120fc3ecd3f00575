import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { guardLoopbackOnly, isLoopbackHost } from "../../src/engine/loopback-guard.ts";
import { tempDir } from "../support/temp-path.ts";

// Every connection to a non-loopback name below carries a lookup that fails: even with the guard
// broken, the socket dies resolving the name and no packet ever leaves the machine.
const BLOCKED_HOST = "flowcheck-guard.invalid";

function failingLookup(calls: { count: number }): net.LookupFunction {
  return (_hostname, _options, callback) => {
    calls.count++;
    callback(new Error("lookup reached"), "");
  };
}

async function errorOf(emitter: net.Socket | http.ClientRequest): Promise<Error & { code?: string }> {
  const [error] = (await once(emitter, "error")) as [Error & { code?: string }];
  return error;
}

// Read when the tests start, not when this file loads: in a process shared with other spec files,
// one of theirs may still have an app (and so a guard) open while this file is imported.
let originalConnect: typeof net.Socket.prototype.connect;

describe("isLoopbackHost", () => {
  test("loopback addresses and names are loopback", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "127.255.255.255", "localhost", "LocalHost", "::1", "[::1]", "::ffff:127.0.0.1"]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
  });

  test("no host at all means localhost, so it is loopback", () => {
    assert.equal(isLoopbackHost(undefined), true);
    assert.equal(isLoopbackHost(""), true);
  });

  test("other addresses and names are refused, including look-alikes of loopback", () => {
    for (const host of [
      "10.0.0.1",
      "192.168.1.10",
      "128.0.0.1",
      "example.com",
      "api.openai.com",
      "localhost.example.com",
      "127.0.0.1.example.com",
      "my-localhost",
      "::2",
      "::ffff:10.0.0.1",
    ]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});

describe("guardLoopbackOnly", () => {
  let loopback: net.Server;
  let port: number;

  before(async () => {
    originalConnect = net.Socket.prototype.connect;
    loopback = net.createServer((socket) => {
      socket.on("data", (data) => socket.end(`pong:${data.toString()}`));
    });
    await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
    port = (loopback.address() as net.AddressInfo).port;
  });

  after(async () => {
    await new Promise<void>((resolve) => loopback.close(() => resolve()));
    net.Socket.prototype.connect = originalConnect;
  });

  test("a connection to a non-loopback host fails with the guard's error before any lookup", async () => {
    const lift = guardLoopbackOnly("scripted");
    try {
      const lookups = { count: 0 };
      const socket = new net.Socket().connect({ host: BLOCKED_HOST, port: 80, lookup: failingLookup(lookups) });
      const error = await errorOf(socket);
      assert.equal(error.code, "ERR_FLOWCHECK_NETWORK_BLOCKED");
      assert.notEqual(error.message, "lookup reached");
      assert.ok(error.message.includes(`${BLOCKED_HOST}:80`), error.message);
      assert.match(error.message, /FLOW_MODEL=scripted allows loopback only/);
      assert.equal(lookups.count, 0);
      assert.equal(socket.destroyed, true);
    } finally {
      lift();
    }
  });

  test("net.connect to a non-loopback host is refused the same way", async () => {
    const lift = guardLoopbackOnly("replay");
    try {
      const lookups = { count: 0 };
      const error = await errorOf(net.connect({ host: BLOCKED_HOST, port: 443, lookup: failingLookup(lookups) }));
      assert.equal(error.code, "ERR_FLOWCHECK_NETWORK_BLOCKED");
      assert.match(error.message, /FLOW_MODEL=replay/);
      assert.equal(lookups.count, 0);
    } finally {
      lift();
    }
  });

  test("node:http and node:https requests to a non-loopback host are refused, though their agent passes path: null", async () => {
    const lift = guardLoopbackOnly("scripted");
    try {
      const lookups = { count: 0 };
      const viaHttp = await errorOf(http.get({ host: BLOCKED_HOST, port: 80, path: "/v1/models", lookup: failingLookup(lookups), agent: false }));
      assert.equal(viaHttp.code, "ERR_FLOWCHECK_NETWORK_BLOCKED", viaHttp.message);
      const viaHttps = await errorOf(https.get({ host: BLOCKED_HOST, port: 443, path: "/v1/models", lookup: failingLookup(lookups), agent: false }));
      assert.equal(viaHttps.code, "ERR_FLOWCHECK_NETWORK_BLOCKED", viaHttps.message);
      assert.equal(lookups.count, 0);
    } finally {
      lift();
    }
  });

  test("a connection to a local IPC socket path is not a network connection and is let through", async () => {
    const dir = await tempDir("guard");
    const socketPath = join(dir.path, "guard.sock");
    const ipc = net.createServer((socket) => socket.end("ipc ok"));
    await new Promise<void>((resolve) => ipc.listen(socketPath, resolve));
    const lift = guardLoopbackOnly("scripted");
    try {
      const socket = net.connect(socketPath);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      assert.equal(Buffer.concat(chunks).toString(), "ipc ok");
    } finally {
      lift();
      await new Promise<void>((resolve) => ipc.close(() => resolve()));
      dir.remove();
    }
  });

  test("a loopback connection still works while the guard is on", async () => {
    const lift = guardLoopbackOnly("scripted");
    try {
      const socket = net.connect({ host: "127.0.0.1", port });
      await once(socket, "connect");
      socket.end("ping");
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      assert.equal(Buffer.concat(chunks).toString(), "pong:ping");
    } finally {
      lift();
    }
  });

  test("the returned function lifts the guard and restores the original connect", async () => {
    const lift = guardLoopbackOnly("scripted");
    assert.notEqual(net.Socket.prototype.connect, originalConnect);
    lift();
    assert.equal(net.Socket.prototype.connect, originalConnect);
    // Unguarded, the socket gets as far as the (failing) lookup, and no further.
    const lookups = { count: 0 };
    const error = await errorOf(new net.Socket().connect({ host: BLOCKED_HOST, port: 80, lookup: failingLookup(lookups) }));
    assert.equal(error.message, "lookup reached");
    assert.equal(lookups.count, 1);
    // Lifting twice is harmless.
    lift();
    assert.equal(net.Socket.prototype.connect, originalConnect);
  });

  test("two guards lifted in reverse order restore the original connect", () => {
    const liftOuter = guardLoopbackOnly("scripted");
    const afterOuter = net.Socket.prototype.connect;
    const liftInner = guardLoopbackOnly("replay");
    try {
      liftInner();
      assert.equal(net.Socket.prototype.connect, afterOuter);
      liftOuter();
      assert.equal(net.Socket.prototype.connect, originalConnect);
    } finally {
      net.Socket.prototype.connect = originalConnect;
    }
  });
});

test("holds on the guard can be lifted in any order, and the guard goes with the last one", () => {
  originalConnect = net.Socket.prototype.connect;
  const liftOuter = guardLoopbackOnly("scripted");
  const liftInner = guardLoopbackOnly("replay");
  const guarded = net.Socket.prototype.connect;
  assert.notEqual(guarded, originalConnect);
  liftOuter();
  assert.equal(net.Socket.prototype.connect, guarded, "the inner hold keeps the guard on");
  liftInner();
  assert.equal(net.Socket.prototype.connect, originalConnect);
});
