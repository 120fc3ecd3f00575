import { compared, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import type { CalledTool } from "./called-tool.ts";
import type { ExpectedToolCall } from "../scenario/scenario.ts";
import { show } from "../scenario/show.ts";

/** Why `called` is not the `expected` call, one message per difference (none: it is). */
function differences(expected: ExpectedToolCall, called: CalledTool): string[] {
  if (expected.name !== called.name) return [`name: expected ${expected.name}, found ${called.name}`];
  const problems: string[] = [];
  if (expected.result !== undefined && expected.result !== called.result)
    problems.push(`result: expected ${expected.result}, found ${called.result ?? "none"}`);
  if (expected.args !== undefined) problems.push(...matchPartial(expected.args, called.args, "args"));
  if (expected.output !== undefined)
    problems.push(
      ...(called.output === undefined
        ? [`output: expected ${show(expected.output, 80)}, but the answer shows no output of the call`]
        : matchPartial(expected.output, called.output, "output")),
    );
  return problems;
}

/**
 * `name(args) → outcome`: our engine's outcome (`stay`…) and what the tool returned (cut at `max`
 * characters), or how it ended without an output: `→ no output in the answer` for a call the answer
 * names but shows no output of.
 */
export function shownCall(call: CalledTool, max = 80): string {
  const output =
    call.output !== undefined
      ? show(call.output, max)
      : call.status === "pending"
        ? "no output in the answer"
        : call.status;
  const ended =
    call.result === undefined ? output : call.output === undefined ? call.result : `${call.result} ${output}`;
  return `${call.name}(${JSON.stringify(call.args)}) → ${ended}`;
}

/**
 * What a call the turn made under the expected one's name got wrong: the first such call after the
 * last match (the nearest the expectation came), or that the turn never called it there.
 */
function nearest(expected: ExpectedToolCall, called: CalledTool[], from: number): string {
  const at = called.findIndex((candidate, position) => position >= from && candidate.name === expected.name);
  if (at < 0) return `the turn did not call ${expected.name}${from > 0 ? " after that" : ""}`;
  return `${expected.name} (call ${at + 1} of the turn) differs: ${differences(expected, called[at]!).join("; ")}`;
}

/**
 * `expectToolCalls` on the tools turn `number` called: each expected call, in order, must match a
 * later call than the one before it matched (a subsequence; other calls may come between). A call
 * whose answer shows no output (`pending`) matches no expected `output`.
 */
export function toolCallsCheck(number: number, expected: ExpectedToolCall[], called: CalledTool[]): Check {
  let from = 0;
  for (const [index, call] of expected.entries()) {
    const at = called.findIndex((candidate, position) => position >= from && differences(call, candidate).length === 0);
    if (at < 0) {
      const problem =
        `turn ${number}: expectToolCalls[${index}] ${JSON.stringify(call)} was not called` +
        (index > 0 ? ` after expectToolCalls[${index - 1}]` : "") +
        `: ${nearest(call, called, from)}; the turn called ${called.length ? called.map((call) => shownCall(call)).join(", ") : "no tool"}`;
      return compared("expectation", "expectToolCalls", problem, expected, called);
    }
    from = at + 1;
  }
  return compared("expectation", "expectToolCalls", undefined, expected, called);
}
