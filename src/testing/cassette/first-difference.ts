export interface Difference {
  /** Where the two differ, e.g. `messages[2].content` or `system`. */
  path: string;
  recorded: unknown;
  now: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The first place, in key order, where `now` differs from `recorded`; undefined when they are equal. */
export function firstDifference(recorded: unknown, now: unknown, path = ""): Difference | undefined {
  if (Array.isArray(recorded) && Array.isArray(now)) {
    for (let i = 0; i < Math.max(recorded.length, now.length); i++) {
      if (i >= recorded.length || i >= now.length)
        return { path: `${path}.length`, recorded: recorded.length, now: now.length };
      const found = firstDifference(recorded[i], now[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(now)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(now)])) {
      const found = firstDifference(recorded[key], now[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(recorded, now) ? undefined : { path: path || "(the whole request)", recorded, now };
}

function window(text: string, at: number): string {
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, at + 60);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

/** Two aligned lines showing a difference; for texts, around the first character that differs. */
export function showDifference(difference: Difference): string {
  const { recorded, now } = difference;
  if (typeof recorded === "string" && typeof now === "string") {
    let at = 0;
    while (at < recorded.length && recorded[at] === now[at]) at++;
    return `  recorded: ${JSON.stringify(window(recorded, at))}\n  now:      ${JSON.stringify(window(now, at))}`;
  }
  const show = (value: unknown) => (value === undefined ? "(absent)" : JSON.stringify(value)?.slice(0, 200));
  return `  recorded: ${show(recorded)}\n  now:      ${show(now)}`;
}
