import { preview } from "../../engine/scripted-model.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { Check } from "../checks/check.ts";

/** A failed turn's message: `turn 2 'name accepted': ` and its failed checks, then the response. */
export function turnFailure(number: number, label: string, failures: readonly Check[], answer: Answer): string {
  // An unexpected status explains the failures after it; saying it alone keeps the message readable,
  // and its message already quotes the error, so the response is not repeated after it.
  const status = failures.find((c) => c.name === "status");
  const told = status ? [status] : failures;
  // An answer check reads like a stored fact; naming it says the step is the server's word alone.
  const tell = (c: Check) => (c.contract === "answer" ? `answer ${c.name}: ${c.message}` : c.message);
  const response = status && answer.json?.["error"] ? "" : `; response: ${JSON.stringify(preview(answer.text, 200))}`;
  return `turn ${number} '${label}': ${told.map(tell).join("; ")}${response}`;
}
