import { compared, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import type { CalledTool } from "./called-tool.ts";
import type { ExpectedToolCall } from "../scenario/scenario.ts";

function matches(expected: ExpectedToolCall, called: CalledTool): boolean {
  return (
    expected.name === called.name &&
    (expected.result === undefined || expected.result === called.result) &&
    (expected.args === undefined || matchPartial(expected.args, called.args, "args").length === 0) &&
    (expected.output === undefined ||
      (called.output !== undefined && matchPartial(expected.output, called.output, "output").length === 0))
  );
}

/** `name(args) → outcome`: our engine's outcome, else what the tool returned, else that it never completed. */
function shown(call: CalledTool): string {
  const ended =
    call.result ??
    (call.output !== undefined
      ? JSON.stringify(call.output)
      : call.status === "pending"
        ? "(not completed)"
        : call.status);
  return `${call.name}(${JSON.stringify(call.args)}) → ${ended}`;
}

/**
 * `expectToolCalls` on the tools turn `number` called: each expected call, in order, must match a
 * later call than the one before it matched (a subsequence; other calls may come between).
 */
export function toolCallsCheck(number: number, expected: ExpectedToolCall[], called: CalledTool[]): Check {
  let from = 0;
  for (const [index, call] of expected.entries()) {
    const at = called.findIndex((candidate, position) => position >= from && matches(call, candidate));
    if (at < 0) {
      const rest = called.slice(from);
      const problem =
        `turn ${number}: expectToolCalls[${index}] ${JSON.stringify(call)} was not called` +
        (index > 0 ? ` after expectToolCalls[${index - 1}]` : "") +
        `; the turn called ${called.length ? called.map(shown).join(", ") : "no tool"}` +
        (from > 0 && rest.length < called.length ? ` (after the match: ${rest.map(shown).join(", ") || "none"})` : "");
      return compared("expectation", "expectToolCalls", problem, expected, called);
    }
    from = at + 1;
  }
  return compared("expectation", "expectToolCalls", undefined, expected, called);
}
