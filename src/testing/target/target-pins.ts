const SECRET = /KEY|TOKEN|SECRET|PASSWORD/i;
const PINNED =
  /^(FLOW_MODEL|FLOW_BASE_URL|SESSION_STORE|SQLITE_PATH|OPENAI_BASE_URL|OPENAI_MODEL|JUDGE_MODEL)$|_USE_SCRIPTED_MODEL$|_CURRENT_DATE$/;

/** The environment a run was read with that decides its outcome (model, store, clocks, the scenario's own env), secrets redacted. */
export function pinsOf(env: Readonly<Record<string, string>>, scenarioKeys: readonly string[]): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const [key, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (!(PINNED.test(key) || scenarioKeys.includes(key))) continue;
    pins[key] = SECRET.test(key) ? "[redacted]" : value;
  }
  return pins;
}
