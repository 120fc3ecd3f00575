import { config as loadDotenv } from "dotenv";
import { loadConfig } from "../config.ts";
import { createApp } from "../create-app.ts";
import { isFlowcheckError } from "../errors.ts";
import { serve } from "../serve.ts";

loadDotenv({ quiet: true });

try {
  const config = loadConfig();
  const fallback = config.openai.apiKey ? "live" : "scripted";
  const app = await createApp({ config, defaultModelMode: fallback });
  const why = config.flowModel ? `FLOW_MODEL=${config.flowModel}` : `FLOW_MODEL unset, ${config.openai.apiKey ? "OPENAI_API_KEY set" : "no OPENAI_API_KEY"}`;
  const modes = Object.entries(app.modelModes).map(([flow, mode]) => `${flow} ${mode}`).join(", ");
  console.log(`flowcheck: models: ${modes} (${why})`);
  const running = await serve(app);
  console.log(`flowcheck: serving ${running.url} with sessions in ${app.store.description}`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(isFlowcheckError(error) ? `flowcheck: ${error.code}: ${error.message}` : error);
  process.exit(1);
}
