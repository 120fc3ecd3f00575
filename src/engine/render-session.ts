import { FlowcheckError } from "../errors.ts";
import { altersRendering } from "./apply-mutant.ts";
import { alteredRendering } from "./altered-rendering.ts";
import type { FlowDefinition } from "./flow.ts";
import type { Mutant } from "./mutant.ts";
import type { SessionHead } from "./session-document.ts";

/** A session rendered in one of its flow's other shapes. */
export interface Rendering {
  mediaType: string;
  body: string;
}

/**
 * The session in the first of `mediaTypes` its flow has a renderer for; undefined when it has
 * none of them. A renderer is the flow's code, like a tool: one that throws is a bug in the flow,
 * an `internal_error` that names the renderer. A `mutant` that alters this rendering alters its body.
 */
export function renderSession(
  flow: FlowDefinition,
  session: SessionHead,
  mediaTypes: readonly string[],
  mutant?: Mutant,
): Rendering | undefined {
  for (const mediaType of mediaTypes) {
    if (!Object.hasOwn(flow.renderers, mediaType)) continue;
    let body: string;
    try {
      body = flow.renderers[mediaType]!({
        steps: session.steps,
        runStatus: session.runStatus,
        currentStep: session.flow.currentStep,
      });
    } catch (error) {
      throw new FlowcheckError(
        "internal_error",
        `The ${mediaType} renderer of ${flow.name} threw: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (mutant !== undefined && altersRendering(mutant, flow.name, mediaType)) body = alteredRendering(mediaType, body);
    return { mediaType, body };
  }
  return undefined;
}
