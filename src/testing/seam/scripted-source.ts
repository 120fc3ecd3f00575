import { preview } from "../../engine/scripted-model.ts";
import { FlowcheckError } from "../../errors.ts";
import type { SeamSource } from "./seam-call.ts";
import type { SeamMessage, SeamRequest, SeamScript } from "./seam-request.ts";

function said(latest: SeamMessage | undefined): string {
  if (!latest) return "none";
  const who = latest.role === "tool" ? `tool ${latest.name}` : latest.role;
  return `${who} "${preview(latest.content)}"`;
}

function unmatched(request: SeamRequest, file: string | undefined): FlowcheckError {
  const { target, flow, model, api } = request.context;
  return new FlowcheckError(
    "script_unmatched",
    `The scripted model of target ${target} has no answer for a ${api} call of flow ${flow} (model ${model}). ` +
      `System prompt: "${preview(request.system)}". Latest message: ${said(request.latest)}. ` +
      `Add a branch for this prompt and message to ${file ?? "the target's scripts module"}, ` +
      "or run it with FLOW_MODEL=live.",
  );
}

/**
 * A conversation's model answered by a team's script. A request it has no answer for throws
 * `script_unmatched`, quoting the system prompt and the latest message, so a prompt change no
 * script covers fails its turn at once.
 *
 * @param file The scripts module, named in that error as the place to add a branch.
 */
export function scriptedSource(script: SeamScript, file?: string): SeamSource {
  return async (request) => {
    const reply = script(request);
    if (!reply) throw unmatched(request, file);
    return { reply };
  };
}
