import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FLOWCHECK } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

/** What `flowcheck serve` prints in `cwd` until it says where it serves, when it is stopped. */
async function startedIn(cwd: string, env: Record<string, string>): Promise<string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(HOST|PORT|SQLITE_PATH|SESSION_STORE|FLOW_MODEL|OPENAI_API_KEY|CI)$/.test(key),
    ),
  );
  const child = spawn(process.execPath, [FLOWCHECK, "serve"], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    if (output.includes("serving")) child.kill("SIGTERM");
  });
  await once(child, "close");
  return output;
}

test("npm start reads .env as defaults under the environment: a variable already set wins", async () => {
  const dir = await tempDir("start-dotenv");
  try {
    writeFileSync(
      join(dir.path, ".env"),
      `PORT=0\nSQLITE_PATH=${join(dir.path, "from-dotenv.sqlite")}\nFLOW_MODEL=scripted\n`,
    );
    const output = await startedIn(dir.path, { SQLITE_PATH: join(dir.path, "from-environment.sqlite") });
    assert.match(output, /serving http:\/\/127\.0\.0\.1:\d+ with sessions in SQLite .*from-environment\.sqlite/);
    assert.match(output, /\(FLOW_MODEL=scripted\)/);
  } finally {
    dir.remove();
  }
});
