import assert from "node:assert/strict";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { createApp, type App } from "../../../src/create-app.ts";
import type { Script } from "../../../src/engine/index.ts";
import type { TurnOutcome } from "../../../src/engine/flow-engine.ts";
import type { SessionDocument } from "../../../src/engine/session-document.ts";
import { HotelFlow, hotelFlowScripts } from "../../../src/flows/hotel/index.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../../support/temp-path.ts";

/** The pin the scenario sets, so the dates these specs expect are the scenario's. */
export const SCENARIO_PIN = "2027-07-15T00:00:00.000Z";

/** One session of HotelFlow, turn by turn. */
export interface Conversation {
  say(message: string): Promise<TurnOutcome>;
  /** The session as the store holds it now. */
  stored(): Promise<SessionDocument>;
}

export interface HotelApp {
  app: App;
  conversation(): Conversation;
}

export interface HotelAppOptions {
  /** The environment the app reads; default `{ HOTEL_FLOW_CURRENT_DATE: SCENARIO_PIN }`. */
  env?: Record<string, string>;
  /** Replaces scripted models by flow name, e.g. RateQuote's, to make the child send bad arguments. */
  scripts?: Readonly<Record<string, Script>>;
}

/** HotelFlow on its scripted model and its own SQLite file; closed and removed after the test. */
export async function openHotelApp(t: TestContext, options: HotelAppOptions = {}): Promise<HotelApp> {
  const dir = await tempDir("hotel-flow");
  const scripts = { ...hotelFlowScripts, ...options.scripts };
  const app = await createApp({
    flows: [{ flow: HotelFlow, scripts }],
    config: loadConfig(options.env ?? { HOTEL_FLOW_CURRENT_DATE: SCENARIO_PIN }),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite"), { scratch: true }),
    log: () => undefined,
  });
  t.after(async () => {
    await app.close();
    dir.remove();
  });
  return {
    app,
    conversation: () => {
      let session: string | undefined;
      return {
        say: async (message) => {
          const outcome = await app.engine.chat(session ? { session, message } : { flow: "HotelFlow", message });
          session = outcome.session;
          return outcome;
        },
        stored: async () => {
          assert.ok(session, "no turn has been played yet");
          const document = await app.engine.fetchAll(session);
          assert.ok(document, `session ${session} should be stored`);
          return document;
        },
      };
    },
  };
}

/** Plays the turns that put a conversation on DatesStep with Pearl District Inn and Rose City Lodge chosen. */
export async function reachDatesStep(conversation: Conversation): Promise<void> {
  const outcome = await conversation.say("Pearl District Inn and Rose City Lodge");
  assert.equal(outcome.currentStep, "DatesStep", outcome.response);
}

/** Plays on to BookStep, with the second week of August priced. */
export async function reachBookStep(conversation: Conversation): Promise<void> {
  await reachDatesStep(conversation);
  const outcome = await conversation.say("the second week of August");
  assert.equal(outcome.currentStep, "BookStep", outcome.response);
}
