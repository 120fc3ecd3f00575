import { readAnswer } from "../answer/read-answer.ts";
import type { ChatClient } from "../client/chat-client.ts";
import { transportChecks } from "../checks/transport-checks.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { messageOf, textOnlyReason } from "../scenario/turn-input.ts";
import type { ConversationTurn, TargetConversation } from "./target-conversation.ts";

/**
 * A conversation with a server that speaks flowcheck's HTTP API: each turn one `POST /ai/chat`
 * under the turn's Idempotency-Key, held to the transport contract (status, `success`, one session
 * id in body and header).
 */
export class FlowcheckConversation implements TargetConversation {
  readonly #client: ChatClient;
  readonly #flowName: string;

  constructor(client: ChatClient, flowName: string) {
    this.#client = client;
    this.#flowName = flowName;
  }

  async send(turn: ScenarioTurn, session: string | undefined, key: string): Promise<ConversationTurn> {
    const message = messageOf(turn.input, textOnlyReason("flowcheck", this.#flowName));
    const exchange = await this.#client.send({
      flow: this.#flowName,
      ...(session ? { session } : {}),
      message,
      ...(turn.accept ? { accept: turn.accept } : {}),
      idempotencyKey: key,
    });
    const answer = readAnswer(exchange.response.headers, exchange.response.body);
    const transport = transportChecks(turn, exchange, answer, session);
    return { exchange, answer, session: transport.session, checks: transport.checks };
  }

  close(): void {
    this.#client.close();
  }
}
