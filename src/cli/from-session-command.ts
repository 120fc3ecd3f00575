import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { commandConfig } from "./command-config.ts";
import { FlowcheckError } from "../errors.ts";
import { openSessionStore } from "../open-session-store.ts";
import { scenarioFromSession } from "../testing/capture/scenario-from-session.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { answerHelp } from "./answer-help.ts";
import { printFailure } from "./print-failure.ts";

const USAGE = `Usage: flowcheck from-session <session id> [--dir <folder>] [--force]

Turns a stored session (SQLITE_PATH, default data/flowcheck.sqlite; MongoDB with
SESSION_STORE=MONGO) into <folder>/<flow>-<first 8 characters of the id>.scenario.json and its
cassette (folder default: scenarios). The stored inputs are played again in this process on the
stored replies, with the flow's clock pinned to the session's start; each turn's step, run status
and changed state become its expectations, and the final state the scenario's. Refuses to overwrite
an existing scenario or cassette unless --force.`;

const DEFAULT_SQLITE = "data/flowcheck.sqlite";

function parsed(args: readonly string[]): { id: string; dir: string; force: boolean } | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { dir: { type: "string" }, force: { type: "boolean" } },
      allowPositionals: true,
    });
    if (positionals.length === 1)
      return { id: positionals[0]!, dir: values.dir ?? "scenarios", force: values.force ?? false };
  } catch (error) {
    console.error((error as Error).message);
  }
  console.error(USAGE);
  return undefined;
}

/** Writes the scenario and cassette of the session `id` in the store the environment names. */
async function writeScenario(id: string, dir: string, force: boolean): Promise<void> {
  const { environment: env, config } = commandConfig({ dotenv: true });
  const sqlite = config.sqlitePath ?? DEFAULT_SQLITE;
  // Opening a missing file would create an empty one, and then not find the session in it.
  if (config.sessionStore === "SQLITE" && !existsSync(sqlite)) {
    throw new FlowcheckError(
      "session_not_found",
      `There is no SQLite file at ${sqlite}, so no session "${id}"; set SQLITE_PATH to the file flowcheck serve kept its sessions in, or SESSION_STORE=MONGO.`,
    );
  }
  const store = await openSessionStore(config, DEFAULT_SQLITE);
  try {
    const flows = await loadProjectFlows();
    const written = await scenarioFromSession({ id, store, flows, env, dir, force });
    console.log(`flowcheck: wrote ${written.file} (${written.scenario.turns.length} turns) and ${written.cassette}`);
    console.log(`flowcheck: run it with FLOW_MODEL=replay flowcheck test ${written.file}`);
  } finally {
    await store.close();
  }
}

/** `flowcheck from-session <session id> [--dir] [--force]`: 0 once written, 1 when it cannot be, 2 for a bad command line. */
export async function fromSessionCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const request = parsed(args);
  if (!request) return 2;
  try {
    await writeScenario(request.id, request.dir, request.force);
    return 0;
  } catch (error) {
    printFailure(error);
    return 1;
  }
}
