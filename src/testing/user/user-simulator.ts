import type { UserReply, UserTurnRequest } from "../../engine/scripted-user.ts";
import type { TokenCount } from "../checks/turn-report.ts";

/** A simulated user's next message, with what its model call used when a model wrote it. */
export interface UserTurn extends UserReply {
  tokens?: TokenCount;
}

/**
 * What writes a simulated user's messages: a flow's scripted user, a live model, or a cassette.
 * `next` rejects with a FlowcheckError (`user_model_failed`, `user_script_unmatched`,
 * `cassette_mismatch`) that says what went wrong; the conversation then fails with it.
 */
export interface UserSimulator {
  /** For reports: `scripted`, `live gpt-4o-mini`, `replay`. */
  readonly player: string;
  next(request: UserTurnRequest): Promise<UserTurn>;
}
