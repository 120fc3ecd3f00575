import { FlowcheckError } from "../errors.ts";
import type { FlowDefinition } from "./flow.ts";
import type { SessionHead } from "./session-document.ts";

/**
 * `session_unreadable` when the stored cursor names a step `flow` no longer has (the step was
 * renamed or removed since the session was saved), so the engine resets the session as it does
 * one it cannot read; undefined when the step is there.
 */
export function staleStepError(flow: FlowDefinition, session: SessionHead): FlowcheckError | undefined {
  const step = session.flow.currentStep;
  if (flow.step(step) !== undefined) return undefined;
  const reason = `its current step "${step}" is not a step of ${flow.name} (${flow.stepNames.join(", ")})`;
  return new FlowcheckError(
    "session_unreadable",
    `Session "${session.id}" cannot be continued by this version (${reason}); ` +
      `it is kept as it is, and a new session is started in its place.`,
    { details: { flow: flow.name, reason } },
  );
}
