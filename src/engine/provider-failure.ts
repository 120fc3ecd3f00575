import { loadOpenAI } from "./load-openai.ts";

/**
 * How an SDK error reads in a message: ` (HTTP 401): Incorrect API key provided`, to follow what
 * failed. Not yet redacted: the caller redacts the whole message it makes.
 */
export function providerFailure(error: unknown): string {
  const status = error instanceof loadOpenAI().APIError && error.status ? ` (HTTP ${error.status})` : "";
  // The SDK's messages end in a period of their own ("Connection error."): one sentence end, not two.
  const reason = (error as Error).message.replace(/\.+$/, "");
  return `${status}: ${reason}`;
}
