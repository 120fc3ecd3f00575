import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import type { FlowEntry } from "../../src/engine/index.ts";
import { serve } from "../../src/serve.ts";
import { postChat } from "./post-chat.ts";

/**
 * Holds a conversation over real HTTP, as curl against `npm start` would: an app on 127.0.0.1 with
 * its sessions in `sqlitePath` (or the store `env` names) and the scripted model, one POST /ai/chat
 * per input. Returns the session id; the app is closed, the session stays in the store.
 */
export async function holdConversation(
  flows: readonly FlowEntry[],
  flowName: string,
  inputs: readonly string[],
  sqlitePath: string,
  env: Record<string, string> = {},
): Promise<string> {
  const app = await createApp({
    flows,
    config: loadConfig({ SQLITE_PATH: sqlitePath, HOST: "127.0.0.1", PORT: "0", ...env }),
  });
  const running = await serve(app);
  try {
    let session: string | undefined;
    for (const message of inputs) {
      const answer = await postChat(
        running.url,
        session === undefined ? { flow: flowName, message } : { message },
        session === undefined ? {} : { CHAT_SESSION_ID: session },
      );
      if (answer.status !== 200) throw new Error(`"${message}" was answered ${answer.status}: ${answer.text}`);
      session = (JSON.parse(answer.text) as { session: string }).session;
    }
    return session!;
  } finally {
    await running.close();
  }
}
