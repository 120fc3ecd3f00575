import { show as quote } from "../scenario/show.ts";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A mismatch quotes more of each value than a scenario's problems do: it is the value stored.
const show = (value: unknown) => quote(value, 80);

/**
 * Compares `actual` with `expected`: objects partially (every expected key must be there and match,
 * other keys are ignored; `{}` matches only an empty object), arrays by length and element,
 * everything else exactly. Returns one
 * message per difference, each starting with its path; a missing key lists the keys that were there.
 */
export function matchPartial(expected: unknown, actual: unknown, path: string): string[] {
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${path}: expected an object, found ${show(actual)}`];
    // {} asks for nothing to be there; as a partial match it would match anything.
    if (Object.keys(expected).length === 0 && Object.keys(actual).length > 0) {
      return [`${path}: expected an empty object, found ${show(actual)}`];
    }
    return Object.entries(expected).flatMap(([key, value]) => {
      if (!(key in actual)) {
        const keys = Object.keys(actual);
        return [`${path}.${key}: missing; ${keys.length ? `${path} has ${keys.join(", ")}` : `${path} is empty`}`];
      }
      return matchPartial(value, actual[key], `${path}.${key}`);
    });
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, found ${show(actual)}`];
    if (actual.length !== expected.length)
      return [`${path}: expected ${expected.length} items, found ${actual.length}: ${show(actual)}`];
    return expected.flatMap((value, index) => matchPartial(value, actual[index], `${path}[${index}]`));
  }
  return Object.is(expected, actual) ? [] : [`${path}: expected ${show(expected)}, found ${show(actual)}`];
}
