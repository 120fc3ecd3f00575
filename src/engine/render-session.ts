import { FlowcheckError } from "../errors.ts";
import type { FlowDefinition } from "./flow.ts";
import type { SessionHead } from "./session-document.ts";

/** A session rendered in one of its flow's other shapes. */
export interface Rendering {
  mediaType: string;
  body: string;
}

/**
 * The session in the first of `mediaTypes` its flow has a renderer for; undefined when it has
 * none of them. A renderer is the flow's code, like a tool: one that throws is a bug in the flow,
 * an `internal_error` that names the renderer.
 */
export function renderSession(
  flow: FlowDefinition,
  session: SessionHead,
  mediaTypes: readonly string[],
): Rendering | undefined {
  for (const mediaType of mediaTypes) {
    if (!Object.hasOwn(flow.renderers, mediaType)) continue;
    try {
      const body = flow.renderers[mediaType]!({
        steps: session.steps,
        runStatus: session.runStatus,
        currentStep: session.flow.currentStep,
      });
      return { mediaType, body };
    } catch (error) {
      throw new FlowcheckError(
        "internal_error",
        `The ${mediaType} renderer of ${flow.name} threw: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return undefined;
}
