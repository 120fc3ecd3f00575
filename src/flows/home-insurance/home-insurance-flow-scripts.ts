import { scriptedText, scriptedToolCalls, type ModelReply, type Script, type Scripts } from "../../engine/index.ts";

// The scripted model reads the user's words as a model would (which fact, which number) and leaves
// every rule (ranges, tables, eligibility, the premium) to the tools and the rating engine.

/** "$2,500,000", "425k", "$1.5 million" → whole dollars. */
const MONEY = /\$?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|m|million)?\b/i;
const YEAR = /\b(\d{4})\b/;
const DIGITS = /\b(\d{1,10})\b/;
const ISO_DATE = /\b(\d{4}-\d{2}-\d{2})\b/;
/** "a burst pipe in 2021", "the kitchen fire in 2025". */
const CLAIM = /\b(?:an?|the|one)\s+([a-z][a-z -]*?)\s+(?:was\s+)?in\s+(\d{4})\b/gi;
const NO_CLAIMS = /\b(no|none|never|zero)\b/i;
const ACCEPT = /\b(yes|bind|accept)\b/i;
const BIND_REQUEST = /\b(bind|accept)\b/i;

/** Words that say which fact a correction is about, whichever fact was asked last. */
const CORRECTIONS: readonly [RegExp, string][] = [
  [/\bbuilt in\b/i, "year built"],
  [/\bdeductible\b/i, "deductible"],
  [/\bzip\b/i, "ZIP code"],
  [/\bclaims?\b/i, "claims history"],
  [/\b(worth|valued?|rebuild)\b/i, "dwelling value"],
  [/\b(walls|made of|construction)\b/i, "construction"],
];

function dollars(text: string): number | undefined {
  const money = MONEY.exec(text);
  if (!money) return undefined;
  const scale = { k: 1_000, thousand: 1_000, m: 1_000_000, million: 1_000_000 }[money[2]?.toLowerCase() ?? ""] ?? 1;
  return Math.round(Number(money[1]!.replaceAll(",", "")) * scale);
}

/** "It's made of straw bales." → "straw bales". */
function material(text: string): string {
  return text
    .trim()
    .replace(/^(?:it's|it is|they're|they are|the walls are|walls are)\s+/i, "")
    .replace(/^(?:mostly\s+)?(?:made|built) (?:of|from|with)\s+/i, "")
    .replace(/\.$/, "");
}

/** The tool call a user's message asks for in QuoteStep, or undefined when it gives no fact. */
function quoteCall(message: string, system: string): ModelReply | undefined {
  const acceptable = /call accept_quote with premiumCents (\d+)/.exec(system);
  // "bind it at $1,500 a year": the premium the user names, which the tool checks against the quote.
  const named = dollars(message);
  if (acceptable && ACCEPT.test(message))
    return scriptedToolCalls([
      { name: "accept_quote", args: { premiumCents: named === undefined ? Number(acceptable[1]) : named * 100 } },
    ]);
  // "just bind it at $500 a year" before there is a quote: passed on, for accept_quote to refuse.
  if (!acceptable && named !== undefined && BIND_REQUEST.test(message))
    return scriptedToolCalls([{ name: "accept_quote", args: { premiumCents: named * 100 } }]);
  const fact =
    CORRECTIONS.find(([words]) => words.test(message))?.[1] ??
    /The next fact to collect is the (.+?)\. /.exec(system)?.[1];
  const call = (name: string, args: Record<string, unknown>) => scriptedToolCalls([{ name, args }]);
  const amount = dollars(message);
  const year = YEAR.exec(message)?.[1];
  const digits = DIGITS.exec(message)?.[1];
  switch (fact) {
    case "dwelling value":
      return amount === undefined ? undefined : call("save_dwelling_value", { dollars: amount });
    case "construction":
      return call("save_construction", { description: material(message) });
    case "year built":
      return year === undefined ? undefined : call("save_year_built", { year: Number(year) });
    case "ZIP code":
      return digits === undefined ? undefined : call("save_zip_code", { zipCode: digits });
    case "deductible":
      return amount === undefined ? undefined : call("save_deductible", { dollars: amount });
    case "claims history":
      return call("save_claims_history", { description: message.trim() });
    default:
      return undefined;
  }
}

function bindCall(message: string, system: string): ModelReply | undefined {
  if (system.includes("The next answer to collect is the named insured's full name")) {
    return scriptedToolCalls([{ name: "save_insured_name", args: { name: message.trim().replace(/\.$/, "") } }]);
  }
  if (system.includes("The next answer to collect is the start date")) {
    return scriptedToolCalls([
      { name: "bind_policy", args: { effectiveDate: ISO_DATE.exec(message)?.[1] ?? message.trim() } },
    ]);
  }
  return undefined;
}

/** HomeInsuranceFlow's deterministic model: branches on the step's prompt and the latest message. */
const homeInsuranceFlow: Script = ({ system, latest }) => {
  const question = /Next question: "(.+)"$/m.exec(system)?.[1];
  // The engine refused the tool's arguments: say so and ask again, in any step.
  const refused =
    latest?.role === "tool" ? /^Invalid arguments for \w+: (.+?)\. Call it again/.exec(latest.content) : null;
  if (refused) return scriptedText(`Sorry, I couldn't use that (${refused[1]}). ${question ?? ""}`.trim());
  // A tool refused text it cannot save (a control character, a broken one): say why and ask again, in any step.
  const unsavable =
    latest?.role === "tool" ? /^(.+?) contains (.+?), which cannot be saved\./.exec(latest.content) : null;
  if (unsavable)
    return scriptedText(
      `Sorry, ${unsavable[1]!.toLowerCase()} you sent contains ${unsavable[2]}, which I can't save. ${question ?? ""}`.trim(),
    );

  if (system.includes("preparing a homeowners quote")) {
    if (latest?.role === "user")
      return quoteCall(latest.content, system) ?? (question ? scriptedText(question) : undefined);
    if (latest?.role === "tool" && question) return scriptedText(`${latest.content} ${question}`);
  }
  if (system.includes("You bind the homeowners policy")) {
    if (latest?.role === "handoff") {
      const premium = /^The user accepted the quote of (\$[\d,.]+) a year\.$/.exec(latest.content)?.[1];
      return question ? scriptedText(`You accepted the quote of ${premium} a year. ${question}`) : undefined;
    }
    if (latest?.role === "user") return bindCall(latest.content, system);
    if (latest?.role === "tool" && system.includes(" is bound."))
      return scriptedText(`${latest.content} Thank you: your home is insured.`);
    if (latest?.role === "tool" && question) return scriptedText(`${latest.content} ${question}`);
  }
  return undefined;
};

/** The ClaimsHistory child's model: lists "a <cause> in <year>" phrases, or none. */
const claimsHistory: Script = ({ system, latest }) => {
  if (!system.includes("past home insurance claims")) return undefined;
  if (latest?.role === "user") {
    const claims = [...latest.content.matchAll(CLAIM)].map((claim) => ({ year: Number(claim[2]), cause: claim[1]! }));
    if (claims.length) return scriptedToolCalls([{ name: "record_claims", args: { claims } }]);
    if (NO_CLAIMS.test(latest.content)) return scriptedToolCalls([{ name: "record_claims", args: { claims: [] } }]);
    return scriptedText("Which year did each claim happen in?");
  }
  if (latest?.role === "tool") return scriptedText(latest.content);
  return undefined;
};

export const homeInsuranceFlowScripts: Scripts = Object.freeze({
  HomeInsuranceFlow: homeInsuranceFlow,
  ClaimsHistory: claimsHistory,
});
