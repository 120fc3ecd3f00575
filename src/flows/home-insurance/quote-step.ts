import { Step, tool, stay, advance, characterProblem, type StayResult, type StepContext } from "../../engine/index.ts";
import { ClaimsHistoryFlow } from "./claims-history/claims-history-flow.ts";
import { describeQuote } from "./describe-quote.ts";
import type { HomeInsuranceFlowTypes } from "./home-insurance-flow.ts";
import {
  claimsProblem,
  constructionClassOf,
  deductibleProblem,
  dwellingValueProblem,
  formatCents,
  rateHomePolicy,
  territoryOf,
  yearBuiltProblem,
  zipCodeProblem,
  type PropertyFacts,
  type RatingFactor,
} from "./rating/index.ts";
import { describeClaims, describeFacts, isComplete, missingFact, RATING_FACTS } from "./rating-facts.ts";

/** A rated premium for the facts as they are now. */
export interface Quote {
  premiumCents: number;
  /** The flow clock's date when it was rated (YYYY-MM-DD); its year is the rating year. */
  ratedOn: string;
  factors: RatingFactor[];
  minimumPremiumApplied: boolean;
}

export interface QuoteState {
  facts?: Partial<PropertyFacts>;
  /** Present once every fact is known, and re-rated whenever one is corrected. */
  quote?: Quote;
}

/** The schema of an arguments object with the one required property `name`, typed as it is written. */
function oneArgument<const Name extends string, const Schema extends object>(name: Name, schema: Schema) {
  return {
    type: "object",
    properties: { [name]: schema } as { [K in Name]: Schema },
    required: [name],
    additionalProperties: false,
  } as const;
}

const WORDS = { type: "string", minLength: 1, maxLength: 300 } as const;

/**
 * Collects the six rating facts, rates them and shows the quote. The facts and the quote live in this
 * one step so that a correction ("actually it was built in 1987") is just the fact's tool called again,
 * here, where the user says it, and the quote is rated again in the same call.
 */
type QuoteContext = StepContext<QuoteState, HomeInsuranceFlowTypes>;

export class QuoteStep extends Step<QuoteState, HomeInsuranceFlowTypes> {
  systemPrompt(context: QuoteContext): string {
    const facts = context.state.facts ?? {};
    const next = missingFact(facts);
    const quote = context.state.quote;
    const lines = [
      "You are a home insurance agent preparing a homeowners quote. Collect six facts about the home, one question at a time: " +
        `${RATING_FACTS.map((fact) => fact.name).join(", ")}.`,
      "As soon as the user gives or corrects a fact, call its tool: save_dwelling_value, save_construction, save_year_built, " +
        "save_zip_code, save_deductible, or save_claims_history with the user's own account of their claims and the year of each. " +
        "The tools check every answer and rate the policy: never accept or refuse an answer, and never work out a premium, yourself. " +
        "After a tool result, tell the user what it says in a sentence or two, then ask the next question.",
      `Facts so far: ${describeFacts(facts)}.`,
    ];
    if (next) {
      lines.push(`The next fact to collect is the ${next.name}. Next question: "${next.question}"`);
    } else if (quote) {
      const premium = formatCents(quote.premiumCents);
      lines.push(
        `Current quote: ${premium} a year (${quote.premiumCents} cents). ` +
          `The user may still correct any fact; its tool then rates the policy again. ` +
          `When the user accepts this quote, call accept_quote with premiumCents ${quote.premiumCents}. ` +
          `Next question: "Would you like me to bind the policy at ${premium} a year?"`,
      );
    }
    return lines.join("\n");
  }

  @tool({
    name: "save_dwelling_value",
    description:
      "Save the dwelling value: what it would cost to rebuild the home from the ground up, in whole US dollars.",
    parameters: oneArgument("dollars", { type: "integer" }),
  })
  saveDwellingValue(args: { dollars: number }, context: QuoteContext) {
    const cents = args.dollars * 100;
    const problem = dwellingValueProblem(cents);
    if (problem) return stay(problem);
    return saveFact(context, { dwellingValueCents: cents }, `Saved the dwelling value: ${formatCents(cents)}.`);
  }

  @tool({
    name: "save_construction",
    description:
      'Save what the home\'s exterior walls are built of, in the user\'s own words (e.g. "brick", "wood frame", "poured concrete").',
    parameters: oneArgument("description", WORDS),
  })
  saveConstruction(args: { description: string }, context: QuoteContext) {
    const unsavable = characterProblem(args.description.trim(), "The description of the walls");
    if (unsavable) return stay(unsavable);
    const match = constructionClassOf(args.description);
    if ("problem" in match) return stay(match.problem);
    return saveFact(
      context,
      { construction: match.construction },
      `Saved the construction: ${match.construction} (${args.description.trim()}).`,
    );
  }

  @tool({
    name: "save_year_built",
    description: "Save the year the home was built (four digits).",
    parameters: oneArgument("year", { type: "integer" }),
  })
  saveYearBuilt(args: { year: number }, context: QuoteContext) {
    const problem = yearBuiltProblem(args.year, context.now().year());
    if (problem) return stay(problem);
    return saveFact(context, { yearBuilt: args.year }, `Saved the year built: ${args.year}.`);
  }

  @tool({
    name: "save_zip_code",
    description: "Save the home's ZIP code, exactly as the user gave it.",
    parameters: oneArgument("zipCode", { type: "string", minLength: 1, maxLength: 20 }),
  })
  saveZipCode(args: { zipCode: string }, context: QuoteContext) {
    const zipCode = args.zipCode.trim();
    const problem = zipCodeProblem(zipCode);
    if (problem) return stay(problem);
    const territory = territoryOf(zipCode)!;
    return saveFact(
      context,
      { zipCode },
      `Saved the ZIP code: ${zipCode} (territory ${territory.code}, ${territory.name}).`,
    );
  }

  @tool({
    name: "save_deductible",
    description: "Save the deductible the user chose, in whole US dollars.",
    parameters: oneArgument("dollars", { type: "integer" }),
  })
  saveDeductible(args: { dollars: number }, context: QuoteContext) {
    const cents = args.dollars * 100;
    const problem = deductibleProblem(cents);
    if (problem) return stay(problem);
    return saveFact(context, { deductibleCents: cents }, `Saved the deductible: ${formatCents(cents)}.`);
  }

  @tool({
    name: "save_claims_history",
    description:
      "Save the home insurance claims of the last five years from the user's own account of them " +
      "(what happened and the year of each), or their saying there were none.",
    parameters: oneArgument("description", WORDS),
  })
  async saveClaimsHistory(args: { description: string }, context: QuoteContext) {
    // Refused here, before the ClaimsHistory child is run with it.
    const unsavable = characterProblem(args.description.trim(), "The account of the claims");
    if (unsavable) return stay(unsavable);
    const listed = await context.runChild(ClaimsHistoryFlow, args.description);
    if (listed.runStatus !== "completed") return stay(`The claims could not be recorded: ${listed.reply}`);
    const claims = listed.output;
    const problem = claimsProblem(claims, context.now().year());
    if (problem) return stay(problem);
    return saveFact(context, { claims }, `Saved the claims history: ${describeClaims(claims)}.`);
  }

  @tool({
    name: "accept_quote",
    description:
      "The user accepts the current quote; moves on to binding the policy. Pass the annual premium of the quote they accepted, in cents.",
    parameters: oneArgument("premiumCents", { type: "integer" }),
  })
  acceptQuote(args: { premiumCents: number }, context: QuoteContext) {
    const quote = context.state.quote;
    if (!quote)
      return stay(
        `There is no quote to accept yet: the ${missingFact(context.state.facts ?? {})?.name} is still missing.`,
      );
    if (args.premiumCents !== quote.premiumCents) {
      return stay(
        `The current quote is ${formatCents(quote.premiumCents)} a year, not ${formatCents(args.premiumCents)}; ` +
          `tell the user the current premium and ask again.`,
      );
    }
    return advance("BindStep", `The user accepted the quote of ${formatCents(quote.premiumCents)} a year.`);
  }
}

/** Saves a checked fact and, once every fact is known, rates the policy again. */
function saveFact(context: QuoteContext, fact: Partial<PropertyFacts>, saved: string): StayResult {
  const facts = Object.assign((context.state.facts ??= {}), fact);
  if (!isComplete(facts)) return stay(saved);
  const now = context.now();
  const rated = rateHomePolicy(facts, now.year());
  // Each fact passed the engine's own check when saved, and time only lets old claims fall out of the look-back.
  if (!rated.eligible) throw new Error(`checked facts were declined: ${rated.reasons.join(" ")}`);
  const quote: Quote = {
    premiumCents: rated.premiumCents,
    ratedOn: now.format("YYYY-MM-DD"),
    factors: rated.factors,
    minimumPremiumApplied: rated.minimumPremiumApplied,
  };
  context.state.quote = quote;
  return stay(`${saved} ${describeQuote(quote)}`);
}
