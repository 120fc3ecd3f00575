import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import { createApp } from "../../create-app.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { SessionDocument, SessionHead } from "../../engine/session-document.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import type { SessionChange } from "../report/run-results.ts";
import { sessionChange } from "../report/session-change.ts";

/** One turn as the flow played it: what was sent, answered, and what it changed in the session. */
export interface CapturedTurn {
  input: string;
  response: string;
  head: SessionHead;
  change: SessionChange;
}

export interface CapturedConversation {
  turns: CapturedTurn[];
  document: SessionDocument;
}

export interface CaptureOptions {
  flowName: string;
  flows: readonly FlowEntry[];
  /** Read with FLOW_MODEL=replay, so every flow's model is `model`, and with the flow's clock pinned. */
  config: Config;
  inputs: readonly string[];
  /** Every model call of the conversation, e.g. the held conversation's replies, on tape. */
  model: ModelWrapper;
  /** Called before each turn with its number from 1, e.g. to label a cassette's calls. */
  beforeTurn?: (turn: number) => void;
}

/**
 * Plays `inputs` as a new conversation with an app in this process, on a scratch SQLite file that
 * is removed afterwards, and reads the stored session after every turn.
 */
export async function captureConversation(options: CaptureOptions): Promise<CapturedConversation> {
  const scratch = await mkdtemp(join(tmpdir(), "flowcheck-capture-"));
  const store = new SqliteSessionStore(join(scratch, "capture.sqlite"), { scratch: true });
  try {
    const app = await createApp({ flows: options.flows, config: options.config, store, cassette: options.model });
    try {
      const turns: CapturedTurn[] = [];
      let session: string | undefined;
      for (const [index, input] of options.inputs.entries()) {
        options.beforeTurn?.(index + 1);
        const outcome = await app.engine.chat(
          session === undefined ? { flow: options.flowName, message: input } : { session, message: input },
        );
        session = outcome.session;
        const head = (await store.fetchHead(session))!;
        turns.push({ input, response: outcome.response, head, change: sessionChange(turns.at(-1)?.head, head) });
      }
      return { turns, document: (await store.fetchAll(session!))! };
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
