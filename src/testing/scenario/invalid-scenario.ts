import type { FlowcheckError } from "../../errors.ts";
import { invalidFile } from "./invalid-file.ts";

/** The `scenario_invalid` error of a file, carrying every problem at once, each on its own line. */
export function invalidScenario(file: string, problems: readonly string[]): FlowcheckError {
  return invalidFile("scenario_invalid", file, "scenario", "no turn was run", problems);
}
