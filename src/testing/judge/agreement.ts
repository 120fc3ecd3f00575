/** A person's verdict on a labelled answer beside the judge's. */
export interface VerdictPair {
  human: "pass" | "fail";
  judgePassed: boolean;
}

function agrees(pair: VerdictPair): boolean {
  return (pair.human === "pass") === pair.judgePassed;
}

/** The share of answers the judge graded as the people did, 0 to 1; 0 for none. */
export function agreement(pairs: readonly VerdictPair[]): number {
  return pairs.length === 0 ? 0 : pairs.filter(agrees).length / pairs.length;
}

/**
 * Cohen's κ of judge and people: (po − pe) / (1 − pe), po the agreement, pe the agreement chance
 * alone would give from the judge's and the people's pass rates. Null where it is not defined: no
 * pair, or every answer one verdict for both (pe = 1).
 */
export function cohensKappa(pairs: readonly VerdictPair[]): number | null {
  if (pairs.length === 0) return null;
  const judgePasses = pairs.filter((pair) => pair.judgePassed).length / pairs.length;
  const humanPasses = pairs.filter((pair) => pair.human === "pass").length / pairs.length;
  const chance = judgePasses * humanPasses + (1 - judgePasses) * (1 - humanPasses);
  if (chance === 1) return null;
  return (agreement(pairs) - chance) / (1 - chance);
}
