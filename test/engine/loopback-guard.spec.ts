import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { guardLoopbackOnly, isLoopbackHost, type LoopbackGuard } from "../../src/engine/loopback-guard.ts";
import { runNode } from "../support/child-run.ts";
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

const GUARD_MODULE = pathToFileURL(resolve(import.meta.dirname, "../../src/engine/loopback-guard.ts")).href;

/**
 * Runs `body` in a Node process of its own, with `assert`, `net`, `guardLoopbackOnly` and `original`
 * (the unpatched connect) in scope: whether the patch is in place is the process's, and in this one
 * another spec's app may hold a guard at any moment.
 */
async function inOwnProcess(body: string): Promise<void> {
  const source = [
    'import assert from "node:assert/strict";',
    'import net from "node:net";',
    `import { guardLoopbackOnly } from ${JSON.stringify(GUARD_MODULE)};`,
    "const original = net.Socket.prototype.connect;",
    body,
  ].join("\n");
  const run = await runNode(["--input-type=module", "--eval", source]);
  assert.equal(run.code, 0, run.stderr);
}

/** Whether a connection to a non-loopback host made in `guard`'s task is refused by the guard. */
async function refusesIn(guard: LoopbackGuard): Promise<boolean> {
  const lookup = failingLookup({ count: 0 });
  const { value: error } = await inTask(guard, () => errorOf(net.connect({ host: BLOCKED_HOST, port: 80, lookup })));
  return error.code === "ERR_FLOWCHECK_NETWORK_BLOCKED";
}

describe("isLoopbackHost", () => {
  test("loopback addresses and names are loopback", () => {
    for (const host of [
      "127.0.0.1",
      "127.8.9.10",
      "127.255.255.255",
      "localhost",
      "LocalHost",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
    ]) {
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

/** Runs `connect` as one guarded task of `guard`, as the engine runs a turn; returns what it refused. */
async function inTask<T>(guard: LoopbackGuard, connect: () => Promise<T>): Promise<{ value: T; blocked: string[] }> {
  const blocked: string[] = [];
  const value = await guard.run(blocked, connect);
  return { value, blocked };
}

describe("guardLoopbackOnly", () => {
  let loopback: net.Server;
  let port: number;

  before(async () => {
    loopback = net.createServer((socket) => {
      socket.on("data", (data) => socket.end(`pong:${data.toString()}`));
    });
    await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
    port = (loopback.address() as net.AddressInfo).port;
  });

  after(async () => {
    await new Promise<void>((resolve) => loopback.close(() => resolve()));
  });

  test("a connection to a non-loopback host fails with the guard's error before any lookup, and is noted for the task", async () => {
    const guard = guardLoopbackOnly("scripted");
    try {
      const lookups = { count: 0 };
      const { value: socket, blocked } = await inTask(guard, async () =>
        new net.Socket().connect({ host: BLOCKED_HOST, port: 80, lookup: failingLookup(lookups) }),
      );
      const error = await errorOf(socket);
      assert.equal(error.code, "ERR_FLOWCHECK_NETWORK_BLOCKED");
      assert.notEqual(error.message, "lookup reached");
      assert.ok(error.message.includes(`${BLOCKED_HOST}:80`), error.message);
      assert.match(error.message, /FLOW_MODEL=scripted allows loopback only/);
      assert.equal(lookups.count, 0);
      assert.equal(socket.destroyed, true);
      assert.deepEqual(blocked, [`${BLOCKED_HOST}:80`]);
    } finally {
      guard.lift();
    }
  });

  test("net.connect to a non-loopback host is refused the same way", async () => {
    const guard = guardLoopbackOnly("replay");
    try {
      const lookups = { count: 0 };
      const error = await inTask(guard, () =>
        errorOf(net.connect({ host: BLOCKED_HOST, port: 443, lookup: failingLookup(lookups) })),
      );
      assert.equal(error.value.code, "ERR_FLOWCHECK_NETWORK_BLOCKED");
      assert.match(error.value.message, /FLOW_MODEL=replay/);
      assert.equal(lookups.count, 0);
    } finally {
      guard.lift();
    }
  });

  test("node:http and node:https requests to a non-loopback host are refused, though their agent passes path: null", async () => {
    const guard = guardLoopbackOnly("scripted");
    try {
      const lookups = { count: 0 };
      const { value: viaHttp } = await inTask(guard, () =>
        errorOf(
          http.get({ host: BLOCKED_HOST, port: 80, path: "/v1/models", lookup: failingLookup(lookups), agent: false }),
        ),
      );
      assert.equal(viaHttp.code, "ERR_FLOWCHECK_NETWORK_BLOCKED", viaHttp.message);
      const { value: viaHttps } = await inTask(guard, () =>
        errorOf(
          https.get({
            host: BLOCKED_HOST,
            port: 443,
            path: "/v1/models",
            lookup: failingLookup(lookups),
            agent: false,
          }),
        ),
      );
      assert.equal(viaHttps.code, "ERR_FLOWCHECK_NETWORK_BLOCKED", viaHttps.message);
      assert.equal(lookups.count, 0);
    } finally {
      guard.lift();
    }
  });

  test("a connection to a local IPC socket path is not a network connection and is let through", async () => {
    const dir = await tempDir("guard");
    const socketPath = join(dir.path, "guard.sock");
    const ipc = net.createServer((socket) => socket.end("ipc ok"));
    await new Promise<void>((resolve) => ipc.listen(socketPath, resolve));
    const guard = guardLoopbackOnly("scripted");
    try {
      const { value: received, blocked } = await inTask(guard, async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of net.connect(socketPath)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString();
      });
      assert.equal(received, "ipc ok");
      assert.deepEqual(blocked, []);
    } finally {
      guard.lift();
      await new Promise<void>((resolve) => ipc.close(() => resolve()));
      dir.remove();
    }
  });

  test("a loopback connection still works while the guard is on", async () => {
    const guard = guardLoopbackOnly("scripted");
    try {
      const { value: received } = await inTask(guard, async () => {
        const socket = net.connect({ host: "127.0.0.1", port });
        await once(socket, "connect");
        socket.end("ping");
        const chunks: Buffer[] = [];
        for await (const chunk of socket) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString();
      });
      assert.equal(received, "pong:ping");
    } finally {
      guard.lift();
    }
  });

  test("a connection made outside the guard's tasks is not the guard's business: another app's turn, or the run's judge, connects as it would alone", async () => {
    const guard = guardLoopbackOnly("scripted");
    try {
      assert.equal(await refusesIn(guard), true, "the guard is on");
      const lookups = { count: 0 };
      const error = await errorOf(
        new net.Socket().connect({ host: BLOCKED_HOST, port: 80, lookup: failingLookup(lookups) }),
      );
      assert.equal(error.message, "lookup reached");
      assert.equal(lookups.count, 1);
    } finally {
      guard.lift();
    }
  });

  test("each guard's tasks are refused in its own mode, and charged to the task that connected, while both run at once", async () => {
    const scripted = guardLoopbackOnly("scripted");
    const replay = guardLoopbackOnly("replay");
    try {
      const connect = (host: string) => errorOf(net.connect({ host, port: 80, lookup: failingLookup({ count: 0 }) }));
      const [first, second] = await Promise.all([
        inTask(scripted, () => connect(`a.${BLOCKED_HOST}`)),
        inTask(replay, () => connect(`b.${BLOCKED_HOST}`)),
      ]);
      assert.match(first.value.message, /FLOW_MODEL=scripted/);
      assert.match(second.value.message, /FLOW_MODEL=replay/);
      assert.deepEqual([first.blocked, second.blocked], [[`a.${BLOCKED_HOST}:80`], [`b.${BLOCKED_HOST}:80`]]);
    } finally {
      replay.lift();
      scripted.lift();
    }
  });

  test("lifting the guard restores the original connect", async () => {
    const guard = guardLoopbackOnly("scripted");
    assert.equal(await refusesIn(guard), true);
    guard.lift();
    // Lifted, its task gets as far as the (failing) lookup, and no further, even while another app holds a guard.
    const other = guardLoopbackOnly("replay");
    try {
      const lookups = { count: 0 };
      const { value: error } = await inTask(guard, () =>
        errorOf(new net.Socket().connect({ host: BLOCKED_HOST, port: 80, lookup: failingLookup(lookups) })),
      );
      assert.equal(error.message, "lookup reached");
      assert.equal(lookups.count, 1);
    } finally {
      other.lift();
    }
    await inOwnProcess(`
      const guard = guardLoopbackOnly("scripted");
      assert.notEqual(net.Socket.prototype.connect, original);
      guard.lift();
      assert.equal(net.Socket.prototype.connect, original);
      guard.lift();
      assert.equal(net.Socket.prototype.connect, original, "lifting twice is harmless");
    `);
  });

  test("two guards lifted in reverse order restore the original connect", async () => {
    const outer = guardLoopbackOnly("scripted");
    const inner = guardLoopbackOnly("replay");
    inner.lift();
    try {
      assert.deepEqual([await refusesIn(inner), await refusesIn(outer)], [false, true]);
    } finally {
      outer.lift();
    }
    assert.equal(await refusesIn(outer), false);
    await inOwnProcess(`
      const outer = guardLoopbackOnly("scripted");
      const afterOuter = net.Socket.prototype.connect;
      const inner = guardLoopbackOnly("replay");
      inner.lift();
      assert.equal(net.Socket.prototype.connect, afterOuter);
      outer.lift();
      assert.equal(net.Socket.prototype.connect, original);
    `);
  });
});

test("guards can be lifted in any order, and the patch goes with the last one", async () => {
  const outer = guardLoopbackOnly("scripted");
  const inner = guardLoopbackOnly("replay");
  outer.lift();
  try {
    assert.deepEqual(
      [await refusesIn(outer), await refusesIn(inner)],
      [false, true],
      "the inner guard keeps the patch on",
    );
  } finally {
    inner.lift();
  }
  await inOwnProcess(`
    const outer = guardLoopbackOnly("scripted");
    const inner = guardLoopbackOnly("replay");
    const guarded = net.Socket.prototype.connect;
    assert.notEqual(guarded, original);
    outer.lift();
    assert.equal(net.Socket.prototype.connect, guarded, "the inner guard keeps the patch on");
    inner.lift();
    assert.equal(net.Socket.prototype.connect, original);
  `);
});
