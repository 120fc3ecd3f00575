import { CONSTRUCTION, type ConstructionClass } from "./rating-tables.ts";

export type ConstructionMatch = { construction: ConstructionClass } | { problem: string };

// Longest first, so "concrete block" is read as masonry before "concrete" could read it as superior.
const ALIASES = Object.entries(CONSTRUCTION)
  .flatMap(([construction, row]) =>
    row.aliases.map((alias) => ({ alias, construction: construction as ConstructionClass })),
  )
  .sort((a, b) => b.alias.length - a.alias.length);

const CLASSES =
  "frame (wood), masonry (brick, stone, concrete block) or superior (poured concrete, steel, fire-resistive)";

/** Words are lower-cased and singular, so "Bricks." reads like "brick". */
function normalized(words: string): string {
  const singular = words
    .toLowerCase()
    .split(/[^a-z-]+/)
    .filter(Boolean)
    .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word));
  return ` ${singular.join(" ")} `;
}

/**
 * The construction class a homeowner's words name: "brick" → masonry, "wood frame" → frame. Words
 * that name no class, or more than one, give the problem to put to the user instead.
 */
export function constructionClassOf(words: string): ConstructionMatch {
  let text = normalized(words);
  const found = new Set<ConstructionClass>();
  for (const { alias, construction } of ALIASES) {
    const needle = ` ${alias} `;
    if (!text.includes(needle)) continue;
    found.add(construction);
    text = text.replaceAll(needle, " ");
  }
  const [only, ...others] = [...found];
  if (!only) return { problem: `"${words}" is not a construction we rate; a home's walls are ${CLASSES}.` };
  if (others.length) {
    return {
      problem:
        `"${words}" names more than one construction (${[...found].join(" and ")}); ` +
        `the class is what the exterior walls are mostly built of.`,
    };
  }
  return { construction: only };
}
