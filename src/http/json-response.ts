import { errorCatalogue, FlowcheckError, isFlowcheckError } from "../errors.ts";
import { SESSION_HEADER, type HttpResponse } from "./http-exchange.ts";

export function jsonResponse(status: number, body: unknown, session?: string): HttpResponse {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (session !== undefined) headers[SESSION_HEADER] = session;
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * `{"success":false,"error":{"code","message"}}` with the code's status. Anything that is not a
 * FlowcheckError is a bug, answered as `internal_error` without leaking its details to the client.
 */
export function errorResponse(error: unknown, session?: string): HttpResponse {
  // An internal_error's message names the bug (a tool's thrown text, say): it goes to the log, not the client.
  const known =
    isFlowcheckError(error) && error.code !== "internal_error" && errorCatalogue[error.code].status !== undefined;
  const flowcheckError = known
    ? (error as FlowcheckError)
    : new FlowcheckError(
        "internal_error",
        "The server failed while handling this request; the turn was not applied. The server log has the details.",
      );
  const body: Record<string, unknown> = { success: false };
  if (session !== undefined) body["session"] = session;
  body["error"] = { code: flowcheckError.code, message: flowcheckError.message };
  return jsonResponse(flowcheckError.status, body, session);
}
