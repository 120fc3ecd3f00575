import type { ScriptedUser } from "../../engine/scripted-user.ts";
import { FlowcheckError } from "../../errors.ts";
import { show } from "../scenario/show.ts";
import type { UserSimulator } from "./user-simulator.ts";

/**
 * A flow's scripted user as a simulator: what its script says, and when it has nothing to say, a
 * loud failure that names the conversation it did not expect, as an unmatched model script does.
 */
export function scriptedUser(script: ScriptedUser, flowName: string): UserSimulator {
  return {
    player: "scripted",
    async next(request) {
      const reply = script(request);
      if (reply) return reply;
      const answers = request.conversation.filter((message) => message.role === "assistant");
      const last = answers.at(-1);
      throw new FlowcheckError(
        "user_script_unmatched",
        `${flowName}'s scripted user has no message ${request.turn} for the user ${show(request.user.persona)} ` +
          `whose goal is ${show(request.user.goal)}; the assistant last said ` +
          `${last ? show(last.content, 200) : "nothing yet"}. Add a branch for this conversation to the ` +
          `scripted user of ${flowName} (the \`user\` of its FlowEntry), or run with FLOW_MODEL=live to have ` +
          `a model play the user.`,
      );
    },
  };
}
