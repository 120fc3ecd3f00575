/** `/turns/2/expectState` → `["turns", "2", "expectState"]`. */
export function pointerParts(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** `/turns/2/expectState` → `turns[2].expectState`: a place in a file as messages name it. */
export function jsonPath(pointer: string, extra?: string): string {
  const parts = pointerParts(pointer);
  if (extra !== undefined) parts.push(extra);
  return (
    parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "") ||
    "(the file)"
  );
}
