import { FlowcheckError } from "../../errors.ts";

/** The `scenario_invalid` error of a file, carrying every problem at once, each on its own line. */
export function invalidScenario(file: string, problems: readonly string[]): FlowcheckError {
  return new FlowcheckError(
    "scenario_invalid",
    `${file} is not a valid scenario (${problems.length} problem${problems.length === 1 ? "" : "s"}); ` +
      `no turn was run:\n- ${problems.join("\n- ")}`,
    { details: problems },
  );
}
