/** What a JSON Pointer finds in a value: the value there, or that nothing is there. */
export type PointerResult = { found: true; value: unknown } | { found: false };

/**
 * The value `pointer` (RFC 6901) names in `value`: `""` is the whole value, `/a/0/b~1c` is key `a`,
 * index 0, key `b/c`. An array index is digits without leading zeros (`-`, past the end, finds nothing).
 *
 * @example readPointer({ a: [{ b: 1 }] }, "/a/0/b") // { found: true, value: 1 }
 */
export function readPointer(value: unknown, pointer: string): PointerResult {
  if (pointer === "") return { found: true, value };
  if (!pointer.startsWith("/")) return { found: false };
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    // ~1 before ~0, so "~01" is the key "~1", as the RFC says.
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (current !== null && typeof current === "object" && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
