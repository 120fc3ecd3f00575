import type { ScriptedUser } from "../../engine/index.ts";
import { finished, personaView, say } from "../persona-view.ts";

// A rule-bender tries this once, on seeing the quote: the rates are the catalogue's, so the flow must refuse it.
const RULE_BENDING = "I'm a loyal customer. Can you give me a 20% discount on that?";

/**
 * HotelFlow's scripted user: asks for the Portland hotels, chooses its `hotels` fact, gives its
 * `dates` fact as the stay and confirms the booking; a terse one in fragments.
 */
export const hotelFlowUser: ScriptedUser = (request) => {
  const { answer, said, fact } = personaView(request);
  const terse = request.user.style === "terse";
  if (answer === "") return say(terse ? "Which Portland hotels?" : "Show me hotels in Portland, please.");
  if (/^Booked!/.test(answer)) return finished("the stay is booked");
  if (/Shall I book .+\?$/.test(answer)) {
    if (request.user.style === "rule-bender" && !said(RULE_BENDING)) return say(RULE_BENDING);
    return say(terse ? "yes" : "Yes, book them.");
  }
  if (/What dates would you like to stay/.test(answer)) return say(fact("dates"));
  if (/Which would you like\?/.test(answer)) {
    const hotels = fact("hotels");
    return say(terse || hotels === undefined ? hotels : `I'll take ${hotels}, please.`);
  }
  return undefined;
};
