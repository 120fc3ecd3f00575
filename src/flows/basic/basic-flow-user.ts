import type { ScriptedUser } from "../../engine/index.ts";
import { finished, personaView, say } from "../persona-view.ts";

// An off-topic user asks this once, where the flow wants the cities; it names no city pair, so
// the flow's script asks for the cities again.
const OFF_TOPIC = "Do you know a good pizza place near here?";

/**
 * BasicFlow's scripted user: introduces itself by its `name` fact, then answers the question the
 * flow's last answer asks with its `cities` and `address` facts, until the flow says it is done.
 */
export const basicFlowUser: ScriptedUser = (request) => {
  const { answer, said, fact } = personaView(request);
  if (answer === "") {
    const name = fact("name");
    return say(request.user.style === "terse" || name === undefined ? name : `I'm ${name}.`);
  }
  if (/That's everything/.test(answer)) return finished("the address is saved");
  if (/What is your US postal address/.test(answer)) return say(fact("address"));
  if (/Which two cities|two (?:known )?city aliases/.test(answer)) {
    if (request.user.style === "off-topic" && !said(OFF_TOPIC)) return say(OFF_TOPIC);
    return say(fact("cities"));
  }
  return undefined;
};
