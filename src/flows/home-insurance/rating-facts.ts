import { DEDUCTIBLES, formatCents, type PropertyFacts } from "./rating/index.ts";

const OFFERED_DEDUCTIBLES = [...DEDUCTIBLES.keys()].map(formatCents);

/** The facts QuoteStep collects, in the order it asks for them, each with its question. */
export const RATING_FACTS: readonly { key: keyof PropertyFacts; name: string; question: string }[] = Object.freeze([
  {
    key: "dwellingValueCents",
    name: "dwelling value",
    question: "What would it cost to rebuild your home from the ground up? That is its dwelling value, in dollars.",
  },
  {
    key: "construction",
    name: "construction",
    question:
      "What are the home's exterior walls built of: wood frame, masonry such as brick or stone, " +
      "or fire-resistive such as poured concrete or steel?",
  },
  { key: "yearBuilt", name: "year built", question: "In what year was the home built?" },
  { key: "zipCode", name: "ZIP code", question: "What is the home's 5-digit ZIP code?" },
  {
    key: "deductibleCents",
    name: "deductible",
    question: `Which deductible would you like: ${OFFERED_DEDUCTIBLES.slice(0, -1).join(", ")} or ${OFFERED_DEDUCTIBLES.at(-1)}?`,
  },
  {
    key: "claims",
    name: "claims history",
    question:
      "Have you filed any home insurance claims in the last five years? If so, tell me what happened and the year of each.",
  },
]);

/** The first fact not known yet, or undefined when every fact is. */
export function missingFact(facts: Partial<PropertyFacts>): (typeof RATING_FACTS)[number] | undefined {
  return RATING_FACTS.find((fact) => facts[fact.key] === undefined);
}

/** The known facts as one line for a prompt: "dwelling value $425,000; construction masonry; …". */
export function describeFacts(facts: Partial<PropertyFacts>): string {
  const known = [
    facts.dwellingValueCents !== undefined && `dwelling value ${formatCents(facts.dwellingValueCents)}`,
    facts.construction !== undefined && `construction ${facts.construction}`,
    facts.yearBuilt !== undefined && `year built ${facts.yearBuilt}`,
    facts.zipCode !== undefined && `ZIP code ${facts.zipCode}`,
    facts.deductibleCents !== undefined && `deductible ${formatCents(facts.deductibleCents)}`,
    facts.claims !== undefined && `claims ${describeClaims(facts.claims)}`,
  ].filter((text) => text !== false);
  return known.length ? known.join("; ") : "none yet";
}

/** "burst pipe 2021, kitchen fire 2025", or "none". */
export function describeClaims(claims: readonly { year: number; cause: string }[]): string {
  return claims.length ? claims.map((claim) => `${claim.cause} ${claim.year}`).join(", ") : "none";
}

export function isComplete(facts: Partial<PropertyFacts>): facts is PropertyFacts {
  return missingFact(facts) === undefined;
}
