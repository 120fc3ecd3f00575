import type { UserMessage, UserProfile } from "../../engine/scripted-user.ts";
import { preview } from "../../engine/scripted-model.ts";
import type { SimulationEnd, SimulationReport, TurnReport } from "../checks/turn-report.ts";
import { DEFAULT_MAX_USER_TURNS, type Scenario, type ScenarioTurn } from "../scenario/scenario.ts";
import { inputText } from "../scenario/turn-input.ts";
import type { UserSimulator } from "../user/user-simulator.ts";

/** What the simulated user goes on from, and how a message it writes is played. */
export interface SimulationContext {
  scenario: Scenario;
  user: UserSimulator | undefined;
  /** Why there is no user to play it, when there is none. */
  unavailable: string | undefined;
  /** The turns played so far, opening turns first. */
  reports: readonly TurnReport[];
  /** Called before the user is asked for message `turn`, so its call is labelled and its tokens counted with the turn it writes. */
  beforeUser(turn: number): void;
  /** Plays one message the user wrote, with every contract that needs no expectation. */
  play(turn: ScenarioTurn, simulated: NonNullable<TurnReport["simulated"]>): Promise<TurnReport>;
}

/** A scenario's `user` with its defaults. */
export function userProfileOf(scenario: Scenario): UserProfile {
  const user = scenario.user!;
  return {
    persona: user.persona,
    goal: user.goal,
    facts: user.facts ?? {},
    style: user.style ?? "cooperative",
    maxTurns: user.maxTurns ?? DEFAULT_MAX_USER_TURNS,
  };
}

/** The conversation as the user saw it: each answered turn's message and answer, oldest first. */
function conversationOf(reports: readonly TurnReport[]): UserMessage[] {
  return reports.flatMap((report): UserMessage[] => [
    { role: "user", content: inputText(report.input) },
    ...(report.answer === undefined ? [] : [{ role: "assistant" as const, content: report.answer }]),
  ]);
}

/** Whether the flow's run ended with this turn: the stored run status, else what the answer claims. */
function completedBy(report: TurnReport): boolean {
  if (report.stored) return report.stored.runStatus === "completed";
  const body = report.response?.body;
  return typeof body === "object" && body !== null && (body as Record<string, unknown>)["completed"] === true;
}

/**
 * The simulated user's side of the conversation, after the opening turns: it is asked for a
 * message, the message is played as a turn of its own, and so on, until the user says it is done,
 * the flow completes, a turn fails its contracts, the user's model fails, or the user has written
 * `maxTurns` messages. Returns how it ended; the turns are in the run's reports.
 */
export async function simulateUser(context: SimulationContext): Promise<SimulationReport> {
  const profile = userProfileOf(context.scenario);
  const player = context.user?.player ?? "nobody";
  let written = 0;
  const ended = (end: SimulationEnd): SimulationReport => ({ player, userTurns: written, end });
  const last = context.reports.at(-1);
  if (last && completedBy(last))
    return ended({ reason: "flow-completed", detail: `the flow completed on opening turn ${last.number}` });
  if (!context.user) return ended({ reason: "user-failed", detail: context.unavailable ?? "no simulated user" });
  const mustNot = context.scenario.success?.responseMustNotInclude;
  for (let turn = 1; turn <= profile.maxTurns; turn++) {
    context.beforeUser(turn);
    let reply;
    try {
      reply = await context.user.next({ user: profile, conversation: conversationOf(context.reports), turn });
    } catch (error) {
      return ended({ reason: "user-failed", detail: (error as Error).message });
    }
    if (reply.done) {
      return ended({
        reason: "user-done",
        detail: reply.reason?.trim() ? reply.reason.trim() : "the user said it was done, without a reason",
      });
    }
    written = turn;
    const played = await context.play(
      {
        label: `user: ${preview(reply.message, 60)}`,
        input: reply.message,
        ...(mustNot ? { responseMustNotInclude: mustNot } : {}),
      },
      { turn, ...(reply.reason ? { reason: reply.reason } : {}) },
    );
    if (played.outcome !== "passed")
      return ended({ reason: "turn-failed", detail: played.failure ?? `turn ${played.number} was not played` });
    if (completedBy(played))
      return ended({ reason: "flow-completed", detail: `the flow completed on turn ${played.number}` });
  }
  return ended({
    reason: "max-turns",
    detail: `the user wrote ${profile.maxTurns} messages (maxTurns) without saying it was done`,
  });
}
