import type { IncomingHttpHeaders } from "node:http";

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|key|token|secret|password/i;

/** Headers as strings, with credentials replaced by `[redacted]`, so artifacts never hold a key. */
export function redactHeaders(headers: IncomingHttpHeaders | Record<string, string>): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    safe[name] = SECRET_HEADER.test(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : String(value);
  }
  return safe;
}
