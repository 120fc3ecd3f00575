import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import { serve } from "../../src/serve.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";

// What `npm start` does, for the BasicFlow fixture instead of the registered flows: for specs that
// need the server in a process of its own, to kill it or to run two on one store. The environment
// (SQLITE_PATH, PORT, FLOW_MODEL, …) configures it, and it prints the line `npm start` prints once
// it listens, which the specs wait for.
const app = await createApp({ config: loadConfig(), flows: [basicFlowEntry] });
const running = await serve(app);
console.log(`flowcheck: serving ${running.url} with sessions in ${app.store.description}`);
