/** ["A"] → "A"; ["A", "B", "C"] → "A, B and C": hotel names as a sentence says them. */
export function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
