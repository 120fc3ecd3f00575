import type { App } from "../../create-app.ts";
import type { Handler } from "../../http/create-handler.ts";
import { SESSION_HEADER, type HttpResponse } from "../../http/http-exchange.ts";

const TOKEN_EVENT = "event: token\n";

/** The chunks of an event-stream answer; undefined for any other. */
function eventStreamOf(response: HttpResponse): readonly string[] | undefined {
  const type = response.headers["Content-Type"] ?? "";
  return type.startsWith("text/event-stream") && Array.isArray(response.body) ? response.body : undefined;
}

/**
 * `app`'s handler with `flow`'s event streams altered: each answer's last `token` event dropped, so
 * the tokens no longer spell the `done` event's response. The session the answer names tells its
 * flow; every other answer, and what is stored, is left as it is.
 */
export function alteredStreamHandler(app: App, flow: string): Handler {
  return async (request) => {
    const response = await app.handler(request);
    const events = eventStreamOf(response);
    const session = response.headers[SESSION_HEADER];
    if (events === undefined || session === undefined) return response;
    if ((await app.store.fetchHead(session))?.flow.name !== flow) return response;
    const last = events.findLastIndex((event) => event.startsWith(TOKEN_EVENT));
    return last === -1 ? response : { ...response, body: events.toSpliced(last, 1) };
  };
}
