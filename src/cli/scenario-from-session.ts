import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import { registeredFlows } from "../flows/index.ts";
import { openSessionStore } from "../open-session-store.ts";
import { scenarioFromSession } from "../testing/capture/scenario-from-session.ts";
import { answerHelp } from "./answer-help.ts";
import { dotenvDefaults } from "./dotenv-defaults.ts";

const USAGE = `Usage: npm run scenario:from-session -- <session id> [--dir <folder>] [--force]

Turns a stored session (SQLITE_PATH, default data/flowcheck.sqlite; MongoDB with
SESSION_STORE=MONGO) into <folder>/<flow>-<first 8 characters of the id>.scenario.json and its
cassette (folder default: scenarios). The stored inputs are played again in this process on the
stored replies, with the flow's clock pinned to the session's start; each turn's step, run status
and changed state become its expectations, and the final state the scenario's. Refuses to overwrite
an existing scenario or cassette unless --force.`;
answerHelp(USAGE);

const DEFAULT_SQLITE = "data/flowcheck.sqlite";

function parsed(): { id: string; dir: string; force: boolean } {
  try {
    const { values, positionals } = parseArgs({
      options: { dir: { type: "string" }, force: { type: "boolean" } },
      allowPositionals: true,
    });
    if (positionals.length === 1)
      return { id: positionals[0]!, dir: values.dir ?? "scenarios", force: values.force ?? false };
  } catch (error) {
    console.error((error as Error).message);
  }
  console.error(USAGE);
  process.exit(2);
}

const { id, dir, force } = parsed();

try {
  const env = { ...dotenvDefaults(), ...process.env };
  const config = loadConfig(env);
  const sqlite = config.sqlitePath ?? DEFAULT_SQLITE;
  // Opening a missing file would create an empty one, and then not find the session in it.
  if (config.sessionStore === "SQLITE" && !existsSync(sqlite)) {
    throw new FlowcheckError(
      "session_not_found",
      `There is no SQLite file at ${sqlite}, so no session "${id}"; set SQLITE_PATH to the file npm start kept its sessions in, or SESSION_STORE=MONGO.`,
    );
  }
  const store = await openSessionStore(config, DEFAULT_SQLITE);
  try {
    const written = await scenarioFromSession({ id, store, flows: registeredFlows, env, dir, force });
    console.log(`flowcheck: wrote ${written.file} (${written.scenario.turns.length} turns) and ${written.cassette}`);
    console.log(`flowcheck: run it with FLOW_MODEL=replay npm run test:flows -- ${written.file}`);
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(isFlowcheckError(error) ? `flowcheck: ${error.code}: ${error.message}` : error);
  process.exit(1);
}
