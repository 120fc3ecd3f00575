import type { TargetConfig } from "./target-config.ts";

/**
 * The values a run must never show (in a transcript, its results or its report), whatever echoed
 * them: every header value of every target, read from the environment, and a credential's part
 * after its scheme (`Bearer <this>`) too, since a server may echo that part alone. A header that
 * holds no secret costs only its value being shown as `[redacted]`.
 */
export function secretValuesOf(config: TargetConfig): string[] {
  const values = Object.values(config.targets).flatMap((entry) => Object.values(entry.headers ?? {}));
  const credentials = values.flatMap((value) => /^[A-Za-z]+ +(\S.*)$/.exec(value)?.[1] ?? []);
  return [...new Set([...values, ...credentials])];
}
