import type { ConversationResult, RunResults } from "../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "./sample-run-results.ts";

/** Repeat `index` of `of` of scenario `name`, its second turn failing (on line 12, why `reason`) or passing. */
function play(name: string, outcome: "passed" | "failed", repeat = { index: 1, of: 1 }): ConversationResult {
  const second =
    outcome === "failed"
      ? sampleTurn(2, { outcome: "failed", location: `journeys/${name}.scenario.json:12`, failure: "wrong step" })
      : sampleTurn(2);
  return sampleConversation(name, [sampleTurn(1), second], {
    id: `journeys/${name}.scenario.json#${name}${repeat.of > 1 ? `@${repeat.index}` : ""}`,
    repeat,
    ...(outcome === "failed" ? { reason: "turn 2 'turn 2': expected active step AddressStep, got NameStep" } : {}),
  });
}

/**
 * Two runs of the same scenarios: `checkout` passed in the older and fails now, `greeting` failed
 * and passes now, `booking` passed its three repeats and now fails one of them, `steady` passes in both.
 */
export function changedRuns(): { older: RunResults; newer: RunResults } {
  const booking = (outcomes: ("passed" | "failed")[]) =>
    outcomes.map((outcome, index) => play("booking", outcome, { index: index + 1, of: outcomes.length }));
  return {
    older: sampleRunResults(
      [
        play("checkout", "passed"),
        play("greeting", "failed"),
        ...booking(["passed", "passed", "passed"]),
        play("steady", "passed"),
      ],
      { startedAt: "2026-11-30T03:17:00.000Z", commit: "a1b2c3d4e5f6a7b8c9d0" },
    ),
    newer: sampleRunResults([
      play("checkout", "failed"),
      play("greeting", "passed"),
      ...booking(["passed", "failed", "passed"]),
      play("steady", "passed"),
    ]),
  };
}
