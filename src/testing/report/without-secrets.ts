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
 * `value` (a run's results, a transcript: anything JSON) with every occurrence of a secret of 8 or
 * more characters replaced by `[redacted]`. Results and transcripts already redact what they pin
 * and the headers named like credentials; this also catches a secret that a model, a server or an
 * error message echoed.
 */
export function withoutSecrets<T>(value: T, secrets: readonly string[]): T {
  const hidden = secrets.filter((secret) => secret.length >= MIN_SECRET);
  if (hidden.length === 0) return value;
  let json = JSON.stringify(value);
  for (const secret of hidden) json = json.split(JSON.stringify(secret).slice(1, -1)).join("[redacted]");
  return JSON.parse(json) as T;
}
