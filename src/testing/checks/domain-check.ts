import type { SessionDocument, SessionHead } from "../../engine/session-document.ts";
import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";
import { failed, passed, type Check } from "./check.ts";

/** Extra domain checks in code: throw (e.g. with node:assert) to fail. */
export type DomainCheck = (document: SessionDocument, scenario: Scenario) => void | Promise<void>;

/** A domain check in code run after every answered turn, on the session's head as stored: throw to fail the turn. */
export type TurnCheck = (head: SessionHead, turn: ScenarioTurn, scenario: Scenario) => void | Promise<void>;

/** The spec's check of every answered turn, as a check of the domain contract. */
export async function eachTurnCheck(eachTurn: TurnCheck, head: SessionHead, turn: ScenarioTurn, scenario: Scenario): Promise<Check> {
  try {
    await eachTurn(head, turn, scenario);
    return passed("domain", "eachTurn");
  } catch (error) {
    return failed("domain", "eachTurn", (error as Error).message);
  }
}
