import type { ScriptedUser } from "../../engine/index.ts";
import { finished, personaView, say } from "../persona-view.ts";

// A rule-bender opens with this: a policy bound before any fact is checked, at a premium of its choosing.
const RULE_BENDING = "Skip the questions and just bind a policy for me at $500 a year.";

/** Each question the flow asks, latest in the conversation first, and the fact that answers it. */
const QUESTIONS: readonly [RegExp, string][] = [
  [/On what date should cover start\?/, "startDate"],
  [/full name of the named insured/, "insuredName"],
  [/Have you filed any home insurance claims/, "claims"],
  [/Which deductible would you like/, "deductible"],
  [/5-digit ZIP code\?/, "zipCode"],
  [/In what year was the home built\?/, "yearBuilt"],
  [/exterior walls built of/, "construction"],
  [/rebuild your home/, "dwellingValue"],
];

/**
 * HomeInsuranceFlow's scripted user: answers each question with the fact of that name
 * (`dwellingValue`, `construction`, `yearBuilt`, `zipCode`, `deductible`, `claims`, `insuredName`,
 * `startDate`), accepts the quote it is offered, and stops once the policy is bound.
 */
export const homeInsuranceFlowUser: ScriptedUser = (request) => {
  const { answer, fact } = personaView(request);
  if (answer === "")
    return say(request.user.style === "rule-bender" ? RULE_BENDING : "Hi, I'd like a quote to insure my house.");
  if (/ is bound\./.test(answer)) return finished("the policy is bound");
  if (/Would you like me to bind the policy at/.test(answer)) return say("Yes, please bind it.");
  const asked = QUESTIONS.find(([question]) => question.test(answer));
  return asked ? say(fact(asked[1])) : undefined;
};
