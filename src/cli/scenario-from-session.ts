import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { isFlowcheckError } from "../errors.ts";
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

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ options: { dir: { type: "string" }, force: { type: "boolean" } }, allowPositionals: true });
}
try {
  args = parse();
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const [id, ...extra] = args.positionals;
if (!id || extra.length) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const env = { ...dotenvDefaults(), ...process.env };
  const store = await openSessionStore(loadConfig(env), "data/flowcheck.sqlite");
  try {
    const written = await scenarioFromSession({ id, store, flows: registeredFlows, env, dir: args.values.dir ?? "scenarios", force: args.values.force ?? false });
    console.log(`flowcheck: wrote ${written.file} (${written.scenario.turns.length} turns) and ${written.cassette}`);
    console.log(`flowcheck: run it with FLOW_MODEL=replay npm run test:flows -- ${written.file}`);
  } finally {
    await store.close();
  }
} catch (error) {
  console.error(isFlowcheckError(error) ? `flowcheck: ${error.code}: ${error.message}` : error);
  process.exit(1);
}
