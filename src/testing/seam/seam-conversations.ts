import { preview } from "../../engine/scripted-model.ts";
import type { SeamCall, SeamHandler, SeamOutcome } from "./seam-call.ts";
import { SeamConversation, type SeamConversationOptions } from "./seam-conversation.ts";
import { TurnsInFlight } from "./turns-in-flight.ts";

/**
 * The ledger of one served app: the conversations played against it, and which turn each model
 * call the app makes belongs to. A call no turn in flight can be credited with is refused and
 * kept as the run's problem, never guessed onto a turn.
 *
 * @example
 * const ledger = new SeamConversations();
 * const conversation = ledger.open({ target: "desk", flow: "booking", label: "booking: two nights", source });
 * await conversation.beginTurn({ number: 1, label: "asks", input: "Two nights, please" });
 * // … the app calls the seam, which calls ledger.answer(call) …
 * const { calls, toolCalls, problems } = conversation.endTurn();
 */
export class SeamConversations implements SeamHandler {
  readonly #turns = new TurnsInFlight<SeamConversation>();
  readonly #uncredited: string[] = [];

  open(options: SeamConversationOptions): SeamConversation {
    return new SeamConversation(options, this.#turns);
  }

  async answer(call: SeamCall): Promise<SeamOutcome> {
    const credited = this.#turns.creditedWith(call);
    if (credited) return credited.owner.answer(call, credited.turn);
    const last = call.request.messages.findLast((message) => message.role === "user");
    const said = last ? `"${preview(last.content)}"` : "none";
    const problem =
      `A ${call.api} call of the app (model ${call.model}) belongs to no turn in flight: its last user message is ${said}, ` +
      `and the turns in flight are: ${this.#turns.described()}. A call is credited to the turn whose input is its last ` +
      "user message, in the conversation that sent its earlier ones; check that the app sends each turn's input to its " +
      "model as the user's message, and makes no model call after the turn's answer." +
      (call.unsupported ? ` The call also asked for what the seam does not speak: ${call.unsupported}` : "");
    this.#uncredited.push(problem);
    this.#turns.failAll(problem);
    return { refused: problem, code: "seam_uncredited" };
  }

  /**
   * The calls no turn could be credited with, each named. Each fails the turns in flight when it
   * was made (or, made between turns, the next one), so the run fails with it.
   */
  uncredited(): string[] {
    return [...this.#uncredited];
  }
}
