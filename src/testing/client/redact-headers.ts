import type { IncomingHttpHeaders } from "node:http";

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|key|token|secret|password/i;
// Named like a credential, but only names a turn: a reader needs it to send the turn again.
const NOT_SECRET = /^idempotency-key$/i;

/**
 * Headers as strings, with credentials replaced by `[redacted]`, so artifacts never hold a key:
 * those named like one, and every header named in `secret` (any letter case).
 */
export function redactHeaders(
  headers: IncomingHttpHeaders | Record<string, string>,
  secret: readonly string[] = [],
): Record<string, string> {
  const hidden = new Set(secret.map((name) => name.toLowerCase()));
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const secret = (SECRET_HEADER.test(name) && !NOT_SECRET.test(name)) || hidden.has(name.toLowerCase());
    safe[name] = secret ? "[redacted]" : Array.isArray(value) ? value.join(", ") : String(value);
  }
  return safe;
}
