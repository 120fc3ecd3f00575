import { commandConfig } from "./command-config.ts";
import { createApp } from "../create-app.ts";
import { isFlowcheckError } from "../errors.ts";
import { serve } from "../serve.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { answerHelp } from "./answer-help.ts";
import { printFailure } from "./print-failure.ts";

const USAGE = `Usage: flowcheck serve

Serves the flows flowcheck.config.json names in "flows" over HTTP on HOST:PORT (default
127.0.0.1:3000), with sessions in SQLITE_PATH (default data/flowcheck.sqlite), or in MongoDB with
SESSION_STORE=MONGO. Reads .env first; a variable already set wins. FLOW_MODEL picks the model
(scripted, live, record, replay); unset, it is live when OPENAI_API_KEY is set, else scripted.
FLOW_API_TOKEN locks the API: every request then needs Authorization: Bearer <that token>.
.env.example lists every variable.`;

/** Serves until SIGINT or SIGTERM, then closes the server and the app. */
async function serveUntilStopped(): Promise<void> {
  const { config } = commandConfig({ dotenv: true });
  const fallback = config.openai.apiKey ? "live" : "scripted";
  const app = await createApp({ config, flows: await loadProjectFlows(), defaultModelMode: fallback });
  const why = config.flowModel
    ? `FLOW_MODEL=${config.flowModel}`
    : `FLOW_MODEL unset, ${config.openai.apiKey ? "OPENAI_API_KEY set" : "no OPENAI_API_KEY"}`;
  const modes = Object.entries(app.modelModes)
    .map(([flow, mode]) => `${flow} ${mode}`)
    .join(", ");
  console.log(`flowcheck: models: ${modes} (${why})`);
  // The lock is flowcheck serve's alone: an app a test run boots in its process is open whatever the environment says.
  const running = await serve(app, config.host, config.port, { apiToken: config.apiToken });
  if (config.apiToken !== undefined)
    console.log("flowcheck: the API is locked: every request needs Authorization: Bearer <FLOW_API_TOKEN>");
  console.log(`flowcheck: serving ${running.url} with sessions in ${app.store.description}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await running.close();
}

/** `flowcheck serve`: 0 once stopped by SIGINT or SIGTERM, 1 when it cannot start. */
export async function serveCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  try {
    await serveUntilStopped();
    return 0;
  } catch (error) {
    // A busy port is what a second `flowcheck serve` meets: its one line says the fix and nothing more.
    if (isFlowcheckError(error, "port_in_use")) console.error(`flowcheck: ${error.message}`);
    else printFailure(error);
    return 1;
  }
}
