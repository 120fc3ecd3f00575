import { Step, tool, stay, complete, characterProblem, type StepContext } from "../../../engine/index.ts";
import type { Claim } from "../rating/index.ts";
import type { ClaimsHistoryTypes } from "./claims-history-flow.ts";

export interface ListClaimsState {
  claims?: Claim[];
}

/** The earliest claim year taken as real; anything before it is a typing mistake. */
const EARLIEST_CLAIM_YEAR = 1900;

export class ListClaimsStep extends Step<ListClaimsState, ClaimsHistoryTypes> {
  systemPrompt(): string {
    return (
      "You read a homeowner's description of their past home insurance claims. Call record_claims once with every claim " +
      'it mentions: the year it happened (four digits) and a short cause such as "burst pipe". If it says there were no ' +
      "claims, call record_claims with an empty list. Never guess a year: when a claim has none, do not call the tool; " +
      "say which claim needs its year."
    );
  }

  @tool({
    name: "record_claims",
    description: "Record every claim the homeowner described, each with the year it happened and a short cause.",
    parameters: {
      type: "object",
      properties: {
        claims: {
          type: "array",
          maxItems: 20,
          items: {
            type: "object",
            properties: { year: { type: "integer" }, cause: { type: "string", minLength: 1, maxLength: 80 } },
            required: ["year", "cause"],
            additionalProperties: false,
          },
        },
      },
      required: ["claims"],
      additionalProperties: false,
    },
  })
  recordClaims(args: { claims: Claim[] }, context: StepContext<ListClaimsState, ClaimsHistoryTypes>) {
    const claims = args.claims.map((claim) => ({
      year: claim.year,
      cause: claim.cause.trim().replace(/\s+/g, " ").toLowerCase(),
    }));
    const unsavable = claims
      .map((claim) => characterProblem(claim.cause, `The cause of the ${claim.year} claim`))
      .find((problem) => problem !== undefined);
    if (unsavable) return stay(unsavable);
    const unnamed = claims.find((claim) => claim.cause === "");
    if (unnamed) return stay(`The claim of ${unnamed.year} has no cause. Ask what happened.`);
    const early = claims.find((claim) => claim.year < EARLIEST_CLAIM_YEAR);
    if (early)
      return stay(`${early.year} is not a plausible year for the ${early.cause} claim. Ask for the year it happened.`);
    context.state.claims = claims;
    return complete(
      claims.length ? `Recorded ${claims.length} claim${claims.length === 1 ? "" : "s"}.` : "Recorded no claims.",
      claims,
    );
  }
}
