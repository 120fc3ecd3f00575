/**
 * The value at an RFC 6901 JSON Pointer, or `{ found: false }` when the path leads nowhere.
 * `""` is the whole value; each `/`-separated token is an object key (`~1` for `/`, `~0` for `~`)
 * or an array index (digits without a leading zero; `-` and anything else find nothing).
 *
 * @example readPointer({ values: { step: "NameStep" } }, "/values/step") // { found: true, value: "NameStep" }
 */
export function readPointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === "") return { found: true, value };
  if (!pointer.startsWith("/")) return { found: false };
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
