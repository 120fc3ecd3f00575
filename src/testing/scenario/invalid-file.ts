import { type ErrorCode, FlowcheckError } from "../../errors.ts";

/**
 * The error of a file that is not what it should be, carrying every problem at once, each on its
 * own line: `<file> is not a valid <what> (2 problems); <consequence>:`.
 */
export function invalidFile(
  code: ErrorCode,
  file: string,
  what: string,
  consequence: string,
  problems: readonly string[],
): FlowcheckError {
  return new FlowcheckError(
    code,
    `${file} is not a valid ${what} (${problems.length} problem${problems.length === 1 ? "" : "s"}); ` +
      `${consequence}:\n- ${problems.join("\n- ")}`,
    { details: problems },
  );
}
