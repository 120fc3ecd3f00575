import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import { openSessionStore } from "../../src/open-session-store.ts";
import { serve } from "../../src/serve.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { EXIT_AFTER_COMMIT, exitingAfterCommit } from "./exit-after-commit.ts";

// What `npm start` does, for the BasicFlow fixture instead of the registered flows: for specs that
// need the server in a process of its own, to kill it or to run two on one store. The environment
// (SQLITE_PATH, PORT, FLOW_MODEL, …) configures it, and it prints the line `npm start` prints once
// it listens, which the specs wait for. TEST_EXIT_AFTER_COMMIT=<n>, set by a spec alone, makes it
// exit right after its n-th commit, before answering.
const config = loadConfig();
const exitAfter = config.env[EXIT_AFTER_COMMIT];
const store =
  exitAfter === undefined
    ? undefined
    : exitingAfterCommit(await openSessionStore(config, "data/flowcheck.sqlite"), Number(exitAfter));
const app = await createApp({ config, flows: [basicFlowEntry], ...(store ? { store } : {}) });
const running = await serve(app);
console.log(`flowcheck: serving ${running.url} with sessions in ${app.store.description}`);
