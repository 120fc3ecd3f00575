import { FlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import { DEFAULT_TIMEOUT_MS, type HttpTargetOptions } from "./http-turn.ts";
import type { HttpTargetEntry } from "./http-target-entry.ts";
import { pointerBoolean, pointerString, pointerValue } from "./pointer-value.ts";
import { renderPath } from "./render-template.ts";
import { answered, jsonBodyOf, QUOTED_BODY } from "../request-target.ts";
import { httpRequest, requestHeaders, targetUrl } from "./http-request.ts";

/** What a target entry with a state endpoint (an http or ai-sdk entry) has for reading it. */
export type StateEndpointEntry = Pick<HttpTargetEntry, "baseUrl" | "timeoutMs" | "headers" | "state">;

/** What an http target says it stored of a session. */
export interface HttpState {
  currentStep?: string;
  completed?: boolean;
  /** The domain state, by step. */
  state: Record<string, unknown>;
}

/**
 * Reads a session from the entry's state endpoint (`GET state.path`, `{{session}}` URL-encoded in
 * it) by its pointers; `state.state` absent, the domain state is the whole body. Its errors are
 * those of `sendHttpTurn`.
 *
 * @example const stored = await readHttpState(entry, answer.session!, { where: "targets.shop" });
 */
export async function readHttpState(
  entry: StateEndpointEntry,
  session: string,
  options: HttpTargetOptions = {},
): Promise<HttpState> {
  const at = options.where ? `${options.where}.` : "";
  const endpoint = entry.state;
  if (!endpoint) {
    throw new FlowcheckError(
      "config_invalid",
      `flowcheck.config.json: ${options.where ?? "the http target"} has no state endpoint to read session ` +
        `${session} from; add ${at}state.path, or do not read the target's state.`,
    );
  }
  const path = renderPath(endpoint.path, { input: undefined, session, messages: [] }, `${at}state.path`);
  const exchange = await httpRequest({
    method: "GET",
    url: targetUrl(entry.baseUrl, path, at),
    headers: requestHeaders({ accept: "application/json" }, entry.headers),
    timeoutMs: options.timeoutMs ?? entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    at,
    made: `${at}state.path or ${at}headers`,
  });
  const body = jsonBodyOf(exchange, `Point ${at}state.path at the endpoint that answers a session's state as JSON.`);
  const but = `${answered(exchange)}, but`;
  const state = pointerValue(body, endpoint.state ?? "", `${but} ${at}state.state (the domain state)`);
  if (state === null || typeof state !== "object" || Array.isArray(state)) {
    throw new FlowcheckError(
      "target_invalid_answer",
      `${but} ${at}state.state finds ${show(state)}, not an object of each step's state, in the body ` +
        `${show(body, QUOTED_BODY)}. Fix the pointer in flowcheck.config.json.`,
    );
  }
  const { step, completed } = endpoint;
  return {
    ...(step === undefined
      ? {}
      : { currentStep: pointerString(body, step, `${but} ${at}state.step (the current step)`) }),
    ...(completed === undefined
      ? {}
      : { completed: pointerBoolean(body, completed, `${but} ${at}state.completed (whether the run has ended)`) }),
    state: state as Record<string, unknown>,
  };
}
