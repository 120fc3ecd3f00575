import type { FlowShape, UntypedFlow } from "../../engine/flow-types.ts";
import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";
import type { SessionViewHead } from "./session-view.ts";
import { failed, passed, type Check } from "./check.ts";
import type { FlowDocument, FlowHead } from "./flow-document.ts";

/** Extra domain checks in code on the whole stored session of flow `F`: throw (e.g. with node:assert) to fail. */
export type DomainCheck<F extends FlowShape = UntypedFlow> = (
  document: FlowDocument<F>,
  scenario: Scenario,
) => void | Promise<void>;

/** A domain check in code run after every answered turn, on the head of flow `F`'s session as stored: throw to fail the turn. */
export type TurnCheck<F extends FlowShape = UntypedFlow> = (
  head: FlowHead<F>,
  turn: ScenarioTurn,
  scenario: Scenario,
) => void | Promise<void>;

/** The spec's check of every answered turn, as a check of the domain contract. */
export async function eachTurnCheck(
  eachTurn: TurnCheck,
  head: SessionViewHead,
  turn: ScenarioTurn,
  scenario: Scenario,
): Promise<Check> {
  try {
    await eachTurn(head, turn, scenario);
    return passed("domain", "eachTurn");
  } catch (error) {
    return failed("domain", "eachTurn", (error as Error).message);
  }
}
