/** A request as the handler sees it: no sockets, so it can be tested by calling it. */
export interface HttpRequest {
  method: string;
  url: string;
  /** Lower-cased names, as node:http gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** One string, or chunks to write one after another (an event stream). */
  body: string | readonly string[];
}

/**
 * A check of a request's method, target and headers, made before its body is read: a response
 * refuses the request, `undefined` lets it through to the handler.
 */
export type RequestGate = (request: Omit<HttpRequest, "body">) => HttpResponse | undefined;

/** The header that carries the session id, in requests and answers. */
export const SESSION_HEADER = "CHAT_SESSION_ID";

export const MAX_BODY_BYTES = 1024 * 1024;

export function headerValue(request: Pick<HttpRequest, "headers">, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
