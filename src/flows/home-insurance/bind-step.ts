import moment from "moment";
import {
  Step,
  tool,
  stay,
  complete,
  characterProblem,
  type DeepReadonly,
  type StepContext,
} from "../../engine/index.ts";
import type { HomeInsuranceFlowTypes } from "./home-insurance-flow.ts";
import { policyNumberOf } from "./policy-number-of.ts";
import type { Quote } from "./quote-step.ts";
import { formatCents, type PropertyFacts } from "./rating/index.ts";

export interface Policy {
  policyNumber: string;
  insuredName: string;
  /** YYYY-MM-DD; cover runs a year from this date. */
  effectiveDate: string;
  expirationDate: string;
  premiumCents: number;
}

export interface BindState {
  insuredName?: string;
  policy?: Policy;
}

const PLACEHOLDERS = new Set([
  "john doe",
  "jane doe",
  "test",
  "test user",
  "asdf",
  "name",
  "your name",
  "first last",
  "foo bar",
]);

/** Cover can start from today up to this many days ahead, as a quote is only held that long. */
const LATEST_START_DAYS = 60;

const DATE = "YYYY-MM-DD";

type BindContext = StepContext<BindState, HomeInsuranceFlowTypes>;

/** The quote the user accepted and its facts: BindStep is entered only through accept_quote, which needs both. */
function accepted(context: BindContext): DeepReadonly<{ facts: PropertyFacts; quote: Quote }> {
  return context.stateOf("QuoteStep") as DeepReadonly<{ facts: PropertyFacts; quote: Quote }>;
}

function startWindow(context: BindContext): { today: moment.Moment; latest: moment.Moment } {
  const today = context.now().startOf("day");
  return { today, latest: today.clone().add(LATEST_START_DAYS, "days") };
}

/** Takes the named insured and the start date, and binds the accepted quote as a policy. */
export class BindStep extends Step<BindState, HomeInsuranceFlowTypes> {
  systemPrompt(context: BindContext): string {
    const { facts, quote } = accepted(context);
    const premium = formatCents(quote.premiumCents);
    const lines = [
      `You bind the homeowners policy the user accepted: ${premium} a year ` +
        `for the ${facts.construction} home built in ${facts.yearBuilt} ` +
        `at ZIP code ${facts.zipCode}. The quote can no longer be changed.`,
    ];
    const policy = context.state.policy;
    if (policy) {
      lines.push(
        `The policy ${policy.policyNumber} is bound. Confirm it to the user with its policy number and dates, and close the conversation.`,
      );
      return lines.join("\n");
    }
    const { today, latest } = startWindow(context);
    lines.push(
      "Collect the named insured's full name (call save_insured_name) " +
        "and the date cover starts (call bind_policy with it as YYYY-MM-DD). " +
        `Today is ${today.format(DATE)}; cover can start from today to ${latest.format(DATE)}. ` +
        "The tools check the answers: after a tool result, tell the user what it says, then ask the next question.",
    );
    lines.push(
      context.state.insuredName === undefined
        ? "The next answer to collect is the named insured's full name. " +
            'Next question: "What is the full name of the named insured, as it should appear on the policy?"'
        : `The next answer to collect is the start date. ` +
            `Next question: "On what date should cover start? ` +
            `Please give it as YYYY-MM-DD, from ${today.format(DATE)} to ${latest.format(DATE)}."`,
    );
    return lines.join("\n");
  }

  @tool({
    name: "save_insured_name",
    description: "Save the named insured's real full name (first and last name), as it should appear on the policy.",
    parameters: {
      type: "object",
      properties: { name: { type: "string", minLength: 1, maxLength: 100 } },
      required: ["name"],
      additionalProperties: false,
    },
  })
  saveInsuredName(args: { name: string }, context: BindContext) {
    const name = args.name.trim().replace(/\s+/g, " ");
    const unsavable = characterProblem(name, "The name");
    if (unsavable) return stay(unsavable);
    if (PLACEHOLDERS.has(name.toLowerCase())) return stay(`"${name}" is a placeholder, not a real name.`);
    if (name.split(" ").length < 2)
      return stay(`The named insured needs a first and a last name; "${name}" is one name.`);
    context.state.insuredName = name;
    return stay(`Saved the named insured: ${name}.`);
  }

  @tool({
    name: "bind_policy",
    description:
      "Bind the accepted quote as a policy whose cover starts on the given date (YYYY-MM-DD). Needs the named insured first.",
    parameters: {
      type: "object",
      properties: { effectiveDate: { type: "string", minLength: 1, maxLength: 40 } },
      required: ["effectiveDate"],
      additionalProperties: false,
    },
  })
  bindPolicy(args: { effectiveDate: string }, context: BindContext) {
    const insuredName = context.state.insuredName;
    if (insuredName === undefined)
      return stay("The named insured's full name is still missing; ask for it before the start date.");
    const start = moment.utc(args.effectiveDate.trim(), DATE, true);
    if (!start.isValid()) return stay(`"${args.effectiveDate}" is not a date written as YYYY-MM-DD.`);
    const { today, latest } = startWindow(context);
    const effectiveDate = start.format(DATE);
    if (start.isBefore(today))
      return stay(`Cover cannot start on ${effectiveDate}, which is in the past: today is ${today.format(DATE)}.`);
    if (start.isAfter(latest)) {
      return stay(
        `Cover cannot start on ${effectiveDate}: the latest start date is ${latest.format(DATE)}, ${LATEST_START_DAYS} days from today.`,
      );
    }
    const { facts, quote } = accepted(context);
    const policy: Policy = {
      policyNumber: policyNumberOf({ facts, premiumCents: quote.premiumCents, insuredName, effectiveDate }),
      insuredName,
      effectiveDate,
      expirationDate: start.clone().add(1, "year").format(DATE),
      premiumCents: quote.premiumCents,
    };
    context.state.policy = policy;
    return complete(
      `Bound policy ${policy.policyNumber} for ${insuredName}: ${formatCents(policy.premiumCents)} a year, ` +
        `cover from ${policy.effectiveDate} to ${policy.expirationDate}.`,
    );
  }
}
