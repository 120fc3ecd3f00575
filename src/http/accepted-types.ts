import { headerValue, type HttpRequest } from "./http-exchange.ts";

/** The media types of the Accept header, in the client's order, without parameters. */
export function acceptedTypes(request: HttpRequest): string[] {
  return (headerValue(request, "accept") ?? "")
    .split(",")
    .map((part) => part.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
}

// The answers every session has: an event stream, or JSON (also any type, or any application type).
export const BUILT_IN_TYPES: ReadonlySet<string> = new Set([
  "text/event-stream",
  "application/json",
  "*/*",
  "application/*",
]);

/**
 * The types a client would rather have than the answers every session has (JSON, an event
 * stream): those it lists before the first of them. A flow's renderer may answer one of these.
 */
export function renderableTypes(accepted: readonly string[]): string[] {
  const end = accepted.findIndex((type) => BUILT_IN_TYPES.has(type));
  return end === -1 ? [...accepted] : accepted.slice(0, end);
}
