import {
  scriptedText,
  scriptedToolCalls,
  type ModelReply,
  type Script,
  type ScriptRequest,
  type Scripts,
} from "../../engine/index.ts";

// Each step is recognised by a phrase of its system prompt. What a step's hand-off says (the hotels
// chosen, the stay and its total) is read from the hand-off; what only the step's prompt carries
// (the catalogue, the quote's lines, the chosen hotels in BookStep) is read back from the prompt, so
// the script proves the prompt carries it.
const EXPLORE = "call choose_hotels with the names as the user gave them";
const DATES = "Call set_stay_dates with the user's words exactly as they said them";
const BOOK = "Show the user this quote and ask them to confirm the booking";
const PRICE = "You price hotel stays in Portland. Call price_stay";

const ASKS_FOR_HOTELS = /\b(show|list|what|which|see|looking|find|explore|available)\b.*\bhotels?\b/i;
const CHOICE_LEAD = /^(?:i'?ll take|i'?d like|we'?d like|let'?s go with|go with|choose|pick)\s+/i;
const CONFIRMS = /\b(yes|yep|confirm|same hotels|book (?:it|them|both|all))\b/i;
/** "Can you give me a 20% discount?", "any cheaper?": the quote's prices are the catalogue's, not the model's to change. */
const HAGGLES = /\b(discount|cheaper|price match|for free)\b|\d+\s*% off/i;
const BOOKS_NAMED = /\bbook\s+(?:only\s+|just\s+)?(.+)$/i;
const LIST_LINES = /^- .+$/gm;

/** "I'll take Pearl District Inn and Rose City Lodge, please." → the two names. */
function namesIn(text: string): string[] {
  return text
    .trim()
    .replace(/[.!]+$/, "")
    .replace(/,?\s*please$/i, "")
    .replace(CHOICE_LEAD, "")
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*/)
    .filter((name) => name !== "");
}

function explore({ system, latest }: ScriptRequest): ModelReply | undefined {
  if (latest?.role === "user") {
    if (ASKS_FOR_HOTELS.test(latest.content)) {
      const list = system.match(LIST_LINES)?.join("\n");
      return scriptedText(
        `Here are our Portland hotels, one room per night:\n${list}\nWhich would you like? You can choose more than one.`,
      );
    }
    return scriptedToolCalls([{ name: "choose_hotels", args: { hotels: namesIn(latest.content) } }]);
  }
  const unknown =
    latest?.role === "tool"
      ? /^(.+?) (is|are) not among our Portland hotels\. The hotels are (.+?)\. Tell the user/.exec(latest.content)
      : null;
  if (unknown)
    return scriptedText(
      `Sorry, ${unknown[1]} ${unknown[2]} not among our Portland hotels. Please choose from ${unknown[3]}.`,
    );
  return undefined;
}

function dates({ latest }: ScriptRequest): ModelReply | undefined {
  if (latest?.role === "handoff") {
    const hotels = /^Chose (.+)\.$/.exec(latest.content)?.[1];
    return scriptedText(
      `You've chosen ${hotels}. What dates would you like to stay, from check-in to check-out? ` +
        'For example "Aug 9 to Aug 14", "the second week of August" or "next weekend".',
    );
  }
  if (latest?.role === "user") return scriptedToolCalls([{ name: "set_stay_dates", args: { dates: latest.content } }]);
  if (latest?.role !== "tool") return undefined;
  const refused = /^"(.+)" cannot be booked: (.+?)\. Tell the user/.exec(latest.content);
  if (refused)
    return scriptedText(`Sorry, I can't book "${refused[1]}": ${refused[2]}. Which dates would you like instead?`);
  const unpriced = /^The stay could not be priced: (.+?) Apologise/.exec(latest.content);
  if (unpriced)
    return scriptedText(`Sorry, I couldn't price that stay: ${unpriced[1]} Could you give the dates again?`);
  return undefined;
}

function book({ system, latest }: ScriptRequest): ModelReply | undefined {
  const chosen = /^The user chose these Portland hotels earlier: (.+?)\. Never ask/.exec(system)?.[1];
  const offer = `Shall I book ${chosen?.split(", ").join(" and ")}?`;
  if (latest?.role === "handoff") {
    const stay = /^The stay is (\S+) to (\S+), (\d+) nights; the quote's total is (\S+)\.$/.exec(latest.content);
    return scriptedText(
      `Here is your quote for check-in ${stay?.[1]} to check-out ${stay?.[2]} (${stay?.[3]} nights), one room per hotel:\n` +
        `${system.match(LIST_LINES)?.join("\n")}\nTotal: ${stay?.[4]}\n${offer}`,
    );
  }
  if (latest?.role === "user") {
    if (HAGGLES.test(latest.content))
      return scriptedText(`Sorry, I can't change the price: the quote is our catalogue's nightly rates. ${offer}`);
    if (CONFIRMS.test(latest.content))
      return scriptedToolCalls([{ name: "book_stay", args: { hotels: chosen?.split(", ") } }]);
    const named = BOOKS_NAMED.exec(latest.content);
    if (named) return scriptedToolCalls([{ name: "book_stay", args: { hotels: namesIn(named[1]!) } }]);
    return undefined;
  }
  if (latest?.role !== "tool") return undefined;
  const booked = /^Booked (.+?) for (\S+) to (\S+) \((\d+) nights\)\. Reference (\S+)\. Total (\S+)\. Give/.exec(
    latest.content,
  );
  if (booked) {
    const [, hotels, checkIn, checkOut, nights, reference, total] = booked;
    return scriptedText(
      `Booked! ${hotels}, check-in ${checkIn}, check-out ${checkOut} (${nights} nights). ` +
        `Your booking reference is ${reference} and the total is ${total}. Enjoy Portland!`,
    );
  }
  const unchosen = /^(.+?) (was|were) not chosen; the chosen hotels are (.+?)\. Tell the user/.exec(latest.content);
  if (unchosen) {
    return scriptedText(
      `${unchosen[1]} ${unchosen[2] === "was" ? "isn't" : "aren't"} among the hotels you chose. ` +
        `You chose ${unchosen[3]}; shall I book those?`,
    );
  }
  return undefined;
}

/** HotelFlow's deterministic model: branches on the step's prompt and the latest message. */
const hotelFlow: Script = (request) => {
  const { system, latest } = request;
  // The engine refused the tool's arguments: ask again, in any step.
  const refused =
    latest?.role === "tool" ? /^Invalid arguments for \w+: (.+?)\. Call it again/.exec(latest.content) : null;
  if (refused) return scriptedText(`Sorry, I couldn't use that (${refused[1]}). Could you say it again?`);
  // A tool refused text it cannot save (a control character, a broken one): say why, in any step.
  const unsavable =
    latest?.role === "tool" ? /^(.+?) contains (.+?), which cannot be saved\./.exec(latest.content) : null;
  if (unsavable)
    return scriptedText(
      `Sorry, ${unsavable[1]!.toLowerCase()} you sent contains ${unsavable[2]}, which I can't save. Could you type it again?`,
    );
  if (system.includes(EXPLORE)) return explore(request);
  if (system.includes(DATES)) return dates(request);
  if (system.includes(BOOK)) return book(request);
  return undefined;
};

/** The RateQuote child's model: prices the stay its input names, then answers with the quote. */
const rateQuote: Script = ({ system, latest }) => {
  if (!system.includes(PRICE)) return undefined;
  if (latest?.role === "user") return scriptedToolCalls([{ name: "price_stay", args: {} }]);
  if (latest?.role === "tool") return scriptedText(latest.content);
  return undefined;
};

export const hotelFlowScripts: Scripts = Object.freeze({ HotelFlow: hotelFlow, RateQuote: rateQuote });
