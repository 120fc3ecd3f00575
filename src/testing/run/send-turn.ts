import type { ChatClient, ChatExchange } from "../client/chat-client.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";

/**
 * Sends the turn's message. With failModelCall the chosen model call of the turn fails meanwhile,
 * and the calls the turn made are counted.
 */
export async function sendTurn(
  client: ChatClient,
  target: ScenarioTarget,
  flowName: string,
  session: string | undefined,
  turn: ScenarioTurn,
): Promise<{ exchange: ChatExchange; modelCalls?: number }> {
  const faults = turn.failModelCall === undefined ? undefined : target.faults!;
  faults?.arm(turn.failModelCall!);
  try {
    const exchange = await client.send({
      flow: flowName,
      ...(session ? { session } : {}),
      message: turn.input,
      ...(turn.accept ? { accept: turn.accept } : {}),
    });
    return faults ? { exchange, modelCalls: faults.disarm() } : { exchange };
  } finally {
    faults?.disarm();
  }
}
