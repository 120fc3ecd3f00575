import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { FlowcheckError } from "../../src/errors.ts";
import { listen } from "../../src/http/node-server.ts";
import { tempDir } from "../support/temp-path.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

test("npm start on a port another process holds prints one line naming the port and PORT, and exits 1", {
  timeout: 60_000,
}, async () => {
  const holder = net.createServer();
  await new Promise<void>((ready) => holder.listen(0, "127.0.0.1", ready));
  const { port } = holder.address() as net.AddressInfo;
  const dir = await tempDir("busy-port");
  try {
    const child = spawn(process.execPath, ["src/cli/flowcheck.mjs", "serve"], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: String(port),
        SESSION_STORE: "SQLITE",
        SQLITE_PATH: join(dir.path, "sessions.sqlite"),
        FLOW_MODEL: "scripted",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((done) => child.once("exit", (exitCode) => done(exitCode)));
    assert.equal(stderr, `flowcheck: port ${port} is in use; set PORT\n`);
    assert.equal(code, 1);
  } finally {
    await new Promise<void>((closed) => holder.close(() => closed()));
    dir.remove();
  }
});

test("listen on a busy port rejects with port_in_use, and on an address of no interface here with config_invalid naming it", async () => {
  const holder = net.createServer();
  await new Promise<void>((ready) => holder.listen(0, "127.0.0.1", ready));
  const { port } = holder.address() as net.AddressInfo;
  const server = http.createServer();
  try {
    await assert.rejects(listen(server, "127.0.0.1", port), (error: unknown) => {
      assert.ok(error instanceof FlowcheckError);
      assert.equal(error.code, "port_in_use");
      assert.equal(error.message, `port ${port} is in use; set PORT`);
      return true;
    });
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): assigned to no interface, so binding fails at once, sending nothing.
    await assert.rejects(listen(server, "192.0.2.1", 0), (error: unknown) => {
      assert.ok(error instanceof FlowcheckError);
      assert.equal(error.code, "config_invalid");
      assert.match(
        error.message,
        /^cannot listen on 192\.0\.2\.1:0 \(listen EADDRNOTAVAIL: .*\); set HOST and PORT to an address of this machine\.$/,
      );
      return true;
    });
  } finally {
    if (server.listening) server.close();
    await new Promise<void>((closed) => holder.close(() => closed()));
  }
});
