import { isFlowcheckError } from "../errors.ts";

/** Prints why a command failed: a FlowcheckError as its one `flowcheck: <code>: <message>` line, anything else whole. */
export function printFailure(error: unknown): void {
  console.error(isFlowcheckError(error) ? `flowcheck: ${error.code}: ${error.message}` : error);
}
