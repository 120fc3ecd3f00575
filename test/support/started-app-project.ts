import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HttpTargetEntry } from "../../src/testing/target/target-config.ts";
import { tempDir } from "./temp-path.ts";

// A team's app as flowcheck starts it: a node http server that answers /health and a chat route,
// appends its pid to starts.txt each time it starts, and writes the variables of interest to
// env.json. APP_MODE=exit makes it exit with code 3 after a line of output; APP_MODE=unready
// makes its /health answer 503 forever; APP_DELAY holds each chat answer that many milliseconds.
const APP = `
import { appendFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
const port = Number(process.env.PORT);
appendFileSync("starts.txt", process.pid + "\\n");
const shown = ["OPENAI_API_KEY", "USER_API_KEY", "JUDGE_API_KEY", "OPENAI_API_BASE", "OPENAI_BASE_URL", "GREETING", "PORT", "SEAM_URL"];
writeFileSync("env.json", JSON.stringify(Object.fromEntries(shown.map((name) => [name, process.env[name] ?? null]))));
console.log("\\u001b[32mapp booting\\u001b[0m on port " + port);
console.error("app stderr line");
// Told apart from SIGKILL, which a process cannot see: the app was stopped the graceful way.
process.on("SIGTERM", () => {
  console.log("app stopping on SIGTERM");
  process.exit(0);
});
if (process.env.APP_MODE === "exit") {
  console.error("app cannot open its database");
  process.exit(3);
}
createServer((request, response) => {
  if (request.url === "/health") {
    response.writeHead(process.env.APP_MODE === "unready" ? 503 : 200).end("ok");
    return;
  }
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => setTimeout(() => {
    const { message } = JSON.parse(body || "{}");
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ answer: (process.env.GREETING ?? "hello") + ", you said " + message, step: "Desk" }));
  }, Number(process.env.APP_DELAY ?? 0)));
}).listen(port, "127.0.0.1", () => console.log("app listening on " + port));
`;

/** A folder holding the app (`app/server.mjs`) and what its runs leave there; removed by `remove`. */
export interface StartedAppProject {
  path: string;
  /** The folder the app runs in. */
  appDir: string;
  /** The pids the app started with, in order. */
  starts(): number[];
  /** The variables the app's last start saw (null: unset). */
  appEnv(): Record<string, string | null>;
  remove(): void;
}

/** A fresh project under test/.tmp with the app in its `app/` folder. */
export async function startedAppProject(prefix: string): Promise<StartedAppProject> {
  const dir = await tempDir(prefix);
  const appDir = join(dir.path, "app");
  mkdirSync(appDir);
  writeFileSync(join(appDir, "server.mjs"), APP);
  return {
    path: dir.path,
    appDir,
    starts: () => {
      const file = join(appDir, "starts.txt");
      return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map(Number) : [];
    },
    appEnv: () => JSON.parse(readFileSync(join(appDir, "env.json"), "utf8")) as Record<string, string | null>,
    remove: dir.remove,
  };
}

/** An http target whose app flowcheck starts from `./app`, `{{port}}` its port, with `start` keys over the defaults. */
export function startedAppEntry(start: Partial<NonNullable<HttpTargetEntry["start"]>> = {}): HttpTargetEntry {
  return {
    kind: "http",
    baseUrl: "http://127.0.0.1:{{port}}",
    start: {
      command: "node server.mjs",
      cwd: "./app",
      env: { PORT: "{{port}}", ...start.env },
      ready: "http://127.0.0.1:{{port}}/health",
      timeoutMs: 10_000,
      ...Object.fromEntries(Object.entries(start).filter(([key]) => key !== "env")),
    },
    turn: { path: "/chat", body: { message: "{{input}}" } },
    answer: { text: "/answer", step: "/step" },
    flows: { DeskFlow: { steps: ["Desk"] } },
  };
}

/** Whether process `pid` still runs: an exited one its adopter has not reaped yet (a zombie, where /proc says so) does not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}
