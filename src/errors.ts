/**
 * Every error flowcheck raises has a stable `code` from this catalogue. HTTP answers use `status`;
 * codes without a status are raised at start-up or by the tester, never sent over HTTP.
 * The error table in docs/reference/http-api.md lists each code; test/errors.spec.ts keeps the two
 * in step.
 */
export const errorCatalogue = {
  invalid_json: { status: 400, summary: "The request body is not valid JSON." },
  invalid_request: { status: 400, summary: "The request is JSON but not a valid chat request." },
  unauthorized: {
    status: 401,
    summary:
      "npm start was given FLOW_API_TOKEN, and the request carries no Authorization: Bearer header with that token.",
  },
  unknown_flow: { status: 404, summary: "No flow is registered under that name." },
  session_not_found: { status: 404, summary: "No session is stored under that id." },
  not_found: { status: 404, summary: "No route matches the path." },
  method_not_allowed: { status: 405, summary: "The route exists but not for this method." },
  flow_completed: { status: 409, summary: "The session's run has ended; start a new session." },
  session_conflict: { status: 409, summary: "Another writer saved this session first; the turn was not applied." },
  idempotency_key_in_flight: {
    status: 409,
    summary: "A request under the same Idempotency-Key is still running; wait for its answer, then retry.",
  },
  body_too_large: { status: 413, summary: "The request body is over the size limit." },
  session_too_large: {
    status: 413,
    summary: "The session has grown past what the store keeps in one document; the turn was not applied.",
  },
  unsupported_media_type: { status: 415, summary: "The request body is not application/json." },
  idempotency_key_reused: {
    status: 422,
    summary: "The Idempotency-Key was used for another request; the turn was not applied.",
  },
  model_error: { status: 502, summary: "The model call failed; the turn was not applied." },
  script_unmatched: {
    status: 502,
    summary: "The scripted model has no answer for this request; the turn was not applied.",
  },
  tool_loop_exceeded: {
    status: 502,
    summary: "The model kept calling tools past the turn's limit; the turn was not applied.",
  },
  cassette_mismatch: {
    status: 502,
    summary:
      "In replay, the model request differs from the recording, or the recording has run out (or is of a version not read); the turn was not applied.",
  },
  network_blocked: {
    status: 502,
    summary: "In a deterministic mode the turn tried to reach a host that is not loopback; the turn was not applied.",
  },
  store_unavailable: {
    status: 503,
    summary: "The session store could not be opened, or failed during the request; nothing of the turn was stored.",
  },
  internal_error: { status: 500, summary: "A bug in the server or a flow; the turn was not applied." },
  config_invalid: { status: undefined, summary: "The environment or options given at start-up are invalid." },
  flow_invalid: { status: undefined, summary: "A flow definition is invalid (steps, tools or schemas)." },
  port_in_use: { status: undefined, summary: "npm start cannot listen: another process has the port." },
  store_driver_missing: {
    status: undefined,
    summary: "The session store chosen needs its driver package (better-sqlite3 or mongodb), which is not installed.",
  },
  session_unreadable: {
    status: undefined,
    summary: "A stored session cannot be read by this version; the engine starts a new one in its place.",
  },
  cassette_missing: { status: undefined, summary: "FLOW_MODEL=replay found no cassette for a scenario." },
  scenario_invalid: { status: undefined, summary: "A scenario file is not valid; no turn of it was run." },
  target_config_invalid: {
    status: undefined,
    summary:
      "flowcheck.config.json is not valid, or a scenario or FLOW_TARGET names a target it does not have; no scenario was run.",
  },
  scenario_failed: {
    status: undefined,
    summary: "A scenario's turn or final state failed its checks; the message starts at the file and line.",
  },
  results_invalid: {
    status: undefined,
    summary:
      "A file given to results:merge, report or scenario:from-results is not a run's results (or is missing), or two of them hold the same conversation.",
  },
  pass_k_invalid: {
    status: undefined,
    summary: "pass^k was asked of counts that are not whole numbers with 0 ≤ successes ≤ tries.",
  },
  scenario_exists: {
    status: undefined,
    summary:
      "scenario:from-session, scenario:from-results or scenario:record would overwrite a scenario or cassette; nothing was written.",
  },
  conversation_not_found: {
    status: undefined,
    summary: "scenario:from-results was given an id that no conversation of the results file has; nothing was written.",
  },
  conversation_not_passed: {
    status: undefined,
    summary:
      "scenario:from-results was given a conversation that did not run, or failed a turn or its success; nothing was written.",
  },
  scenario_name_invalid: {
    status: undefined,
    summary: "A scenario name given to scenario:record is not lower-case letters, digits and dashes.",
  },
  capture_diverged: {
    status: undefined,
    summary: "Playing a held conversation again, the flow asked its model otherwise than it did; nothing was written.",
  },
  flow_name_invalid: {
    status: undefined,
    summary:
      "npm run new:flow was given a name that is not PascalCase ending in Flow, or is over 38 characters; nothing was written.",
  },
  flow_name_taken: {
    status: undefined,
    summary: "npm run new:flow was given the name of a flow, or of files, that already exist; nothing was written.",
  },
  team_flows_unreadable: {
    status: undefined,
    summary:
      "npm run new:flow cannot find the teamFlows list in src/flows/team-flows.ts to register the flow in; nothing was written.",
  },
  flows_module_missing: {
    status: undefined,
    summary: 'The module flowcheck.config.json names in "flows" does not exist; nothing was run.',
  },
  flows_module_failed: {
    status: undefined,
    summary:
      'The module flowcheck.config.json names in "flows" threw, or did not compile, when imported; nothing was run.',
  },
  flows_module_invalid: {
    status: undefined,
    summary:
      'The module flowcheck.config.json names in "flows" exports no registeredFlows, or one that is not an array of flow entries; nothing was run.',
  },
  checklist_failed: {
    status: undefined,
    summary:
      "FLOW_CHECKLIST=strict (or a flow's <FLOW>_STRICT_CHECKLIST=1) found a new-flow checklist point that the run did not prove.",
  },
  target_unreachable: {
    status: undefined,
    summary:
      "The tester could not reach a target's server: the connection was refused, or no whole answer came within its timeoutMs.",
  },
  target_invalid_answer: {
    status: undefined,
    summary:
      "A target's server answered otherwise than its API or flowcheck.config.json describes: a status that is not 2xx, a body that is not JSON or not the stream named, or a pointer that finds nothing.",
  },
  user_model_failed: {
    status: undefined,
    summary:
      "The model playing a scenario's simulated user could not be reached, or answered badly twice running; the conversation failed.",
  },
  user_script_unmatched: {
    status: undefined,
    summary: "A flow's scripted user has no message for the conversation so far; the conversation failed.",
  },
  strength_refused: {
    status: undefined,
    summary:
      "A scenario strength run was asked to give a mutant to a target that does not run in this process (FLOW_BASE_URL, a target of flowcheck.config.json), or to play it with a live or recording model.",
  },
  strength_marked_unknown: {
    status: undefined,
    summary:
      "flowcheck.config.json marks as equivalent a mutant id that no mutant of the strength run has; nothing was written.",
  },
  target_start_failed: {
    status: undefined,
    summary:
      "The app a target's start launches exited, or did not answer its ready URL in time; " +
      "its process group was stopped and nothing was played.",
  },
  judge_labels_invalid: {
    status: undefined,
    summary: "A judge labels file is not one (or a label in it is wrong); nothing was read from it or written to it.",
  },
  target_run_failed: {
    status: undefined,
    summary: "A LangGraph run played for a turn ended in an error raised by the graph.",
  },
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

/** An error with a stable code and a message that says what happened and what to do next. */
export class FlowcheckError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "FlowcheckError";
    this.code = code;
    this.status = errorCatalogue[code].status ?? 500;
    this.details = options.details;
  }
}

export function isFlowcheckError(error: unknown, code?: ErrorCode): error is FlowcheckError {
  return error instanceof FlowcheckError && (code === undefined || error.code === code);
}
