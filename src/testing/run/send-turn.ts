import type { ChatClient, ChatExchange } from "../client/chat-client.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";
import { messageOf, textOnlyReason } from "../scenario/turn-input.ts";

/**
 * Sends the turn's message under its `key` (its Idempotency-Key). With failModelCall the chosen
 * model call of the turn fails meanwhile, and the calls the turn made are counted.
 */
export async function sendTurn(
  client: ChatClient,
  target: ScenarioTarget,
  flowName: string,
  session: string | undefined,
  turn: ScenarioTurn,
  key: string,
): Promise<{ exchange: ChatExchange; modelCalls?: number }> {
  const message = messageOf(turn.input, textOnlyReason("flowcheck", flowName));
  const faults = turn.failModelCall === undefined ? undefined : target.faults!;
  faults?.arm(turn.failModelCall!);
  try {
    const exchange = await client.send({
      flow: flowName,
      ...(session ? { session } : {}),
      message,
      ...(turn.accept ? { accept: turn.accept } : {}),
      idempotencyKey: key,
    });
    return faults ? { exchange, modelCalls: faults.disarm() } : { exchange };
  } finally {
    faults?.disarm();
  }
}
