import type { RunResults } from "../run-results.ts";

const SECRET_KEY = /KEY|TOKEN|SECRET|PASSWORD/i;
// Shorter values would redact ordinary words: a secret that short is no secret.
const MIN_SECRET = 8;

function headerValues(json: string | undefined): string[] {
  try {
    const headers = JSON.parse(json ?? "{}") as unknown;
    return headers && typeof headers === "object"
      ? Object.values(headers).filter((value): value is string => typeof value === "string")
      : [];
  } catch {
    return [];
  }
}

/** The secrets `env` holds that a page must never show: credential-named variables' values and `FLOW_HEADERS` values. */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const named = Object.entries(env).flatMap(([key, value]) => (SECRET_KEY.test(key) && value ? [value] : []));
  return [...new Set([...named, ...headerValues(env["FLOW_HEADERS"])])].filter((secret) => secret.length >= MIN_SECRET);
}

/**
 * `results` with every occurrence of a secret replaced by `[redacted]`. The results already redact
 * what they pin; this also catches a secret that a model, a server or an error message echoed.
 */
export function withoutSecrets(results: RunResults, secrets: readonly string[]): RunResults {
  if (secrets.length === 0) return results;
  let json = JSON.stringify(results);
  for (const secret of secrets) json = json.split(JSON.stringify(secret).slice(1, -1)).join("[redacted]");
  return JSON.parse(json) as RunResults;
}
