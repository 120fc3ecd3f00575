import { createHash } from "node:crypto";
import type { DeepReadonly } from "../../engine/index.ts";
import type { PropertyFacts } from "./rating/index.ts";

/**
 * The policy number, derived from everything bound: the same policy always gets the same number, so
 * a scenario can assert it and a retried bind cannot mint a second one. "HO-<start year>-<8 hex>".
 */
export function policyNumberOf(policy: {
  facts: DeepReadonly<PropertyFacts>;
  premiumCents: number;
  insuredName: string;
  effectiveDate: string;
}): string {
  const { facts } = policy;
  // An array, not the objects, so that the order of keys in the stored state cannot change the number.
  const canonical = JSON.stringify([
    facts.dwellingValueCents,
    facts.construction,
    facts.yearBuilt,
    facts.zipCode,
    facts.deductibleCents,
    facts.claims.map((claim) => [claim.year, claim.cause]),
    policy.premiumCents,
    policy.insuredName,
    policy.effectiveDate,
  ]);
  const digest = createHash("sha256").update(canonical).digest("hex");
  return `HO-${policy.effectiveDate.slice(0, 4)}-${digest.slice(0, 8).toUpperCase()}`;
}
