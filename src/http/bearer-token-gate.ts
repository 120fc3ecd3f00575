import { createHash, timingSafeEqual } from "node:crypto";
import { FlowcheckError } from "../errors.ts";
import { headerValue, type RequestGate } from "./http-exchange.ts";
import { errorResponse } from "./json-response.ts";

const REALM = 'Bearer realm="flowcheck"';
const FIX = "send Authorization: Bearer <the FLOW_API_TOKEN the server was started with>";

// Digests are as long as each other whatever was sent, so comparing them takes the same time for
// every wrong token, and neither the time nor the answer tells a guesser how long the token is.
function digestOf(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Why `authorization` does not carry the token, and the challenge that goes with it (RFC 6750); undefined when it does. */
function refusalOf(
  authorization: string | undefined,
  expected: Buffer,
): { message: string; challenge: string } | undefined {
  // No message quotes what was sent: a token that does not match may still be someone's secret.
  if (authorization === undefined)
    return {
      message: `The request has no Authorization header, and this server's API is locked; ${FIX}.`,
      challenge: REALM,
    };
  const [, scheme = "", token = ""] = /^(\S*)\s*(.*)$/.exec(authorization.trim()) ?? [];
  if (scheme.toLowerCase() !== "bearer")
    return {
      message: `The Authorization header is not of the Bearer scheme (its value is not shown); ${FIX}.`,
      challenge: REALM,
    };
  const invalid = `${REALM}, error="invalid_token"`;
  if (token === "")
    return {
      message: `The Authorization header names the Bearer scheme but carries no token; ${FIX}.`,
      challenge: invalid,
    };
  if (!timingSafeEqual(digestOf(token), expected)) {
    return {
      message: `The bearer token does not match this server's FLOW_API_TOKEN (neither is shown); ${FIX}.`,
      challenge: invalid,
    };
  }
  return undefined;
}

/**
 * Refuses every request, whatever its route or method, with 401 `unauthorized` and a
 * `WWW-Authenticate: Bearer` challenge unless it carries `Authorization: Bearer <token>`.
 *
 * @example
 * createNodeServer(app.handler, { gate: bearerTokenGate(config.apiToken) });
 */
export function bearerTokenGate(token: string): RequestGate {
  const expected = digestOf(token);
  return (request) => {
    const refusal = refusalOf(headerValue(request, "authorization"), expected);
    if (refusal === undefined) return undefined;
    const response = errorResponse(new FlowcheckError("unauthorized", refusal.message));
    response.headers["WWW-Authenticate"] = refusal.challenge;
    return response;
  };
}
