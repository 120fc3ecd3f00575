import type { TurnOutcome } from "../engine/flow-engine.ts";
import { SESSION_HEADER, type HttpResponse } from "./http-exchange.ts";

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The answer as server-sent events: `token` events with the response in word-sized pieces, then one
 * `done` event carrying the same JSON a plain request gets. The turn is saved before the first byte,
 * so a stream never shows text of a turn that was not applied.
 */
export function eventStreamResponse(outcome: TurnOutcome): HttpResponse {
  const tokens = outcome.response.match(/\s*\S+\s*/g) ?? [];
  return {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      [SESSION_HEADER]: outcome.session,
    },
    body: [...tokens.map((text) => event("token", { text })), event("done", { success: true, ...outcome })],
  };
}
