import { randomUUID } from "node:crypto";
import { mediaTypeOf, type Answer } from "../../answer/read-answer.ts";
import { parseCsv, type Csv } from "../../answer/parse-csv.ts";
import { check, type Check } from "../../checks/check.ts";
import { contentTypeCheck, statusCheck } from "../../checks/transport-checks.ts";
import { isSuccessStatus } from "../../scenario/is-success-status.ts";
import type { ScenarioTurn } from "../../scenario/scenario.ts";
import { TOOL_CALLS_UNREPORTED, type ConversationTurn, type TargetConversation } from "../target-conversation.ts";
import type { HttpTargetEntry } from "./http-target-entry.ts";
import { sendHttpTurn, type HttpTurnAnswer } from "./http-turn.ts";
import type { ConversationMessage } from "./render-template.ts";
import { messageOf, textOnlyReason } from "../../scenario/turn-input.ts";

/**
 * A conversation with a team's own chat API as its http target entry describes it: each turn one
 * request from the entry's templates, the conversation so far in `{{messages}}`, the session the
 * server assigned (or, for a server that assigns none, an id made here) in `{{session}}`. The
 * answer claims only what the entry's pointers read: its step and completion; and where the answer
 * reports them (its stream, or `answer.toolCalls`), each turn gives the tools it called.
 */
export class HttpConversation implements TargetConversation {
  readonly toolCallsUnknown = TOOL_CALLS_UNREPORTED;
  readonly #entry: HttpTargetEntry;
  readonly #where: string;
  readonly #messages: ConversationMessage[] = [];
  /** Whether the server names the session (a pointer or header to read it from), or this side makes it. */
  readonly #assigned: boolean;

  constructor(entry: HttpTargetEntry, where: string) {
    this.#entry = entry;
    this.#where = where;
    this.#assigned = entry.answer.session !== undefined || entry.answer.sessionHeader !== undefined;
  }

  /** Holds nothing open between turns: each is a request of its own. */
  close(): void {}

  async send(turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn> {
    const input = messageOf(turn.input, textOnlyReason("http", this.#where));
    const sent = session ?? (this.#assigned ? undefined : randomUUID());
    const started = performance.now();
    const answered = await sendHttpTurn(
      this.#entry,
      { input, session: sent, messages: [...this.#messages] },
      {
        where: this.#where,
        ...(isSuccessStatus(turn.expectedStatus ?? 200) ? {} : { expectedStatus: turn.expectedStatus! }),
        ...(turn.accept === undefined ? {} : { accept: turn.accept }),
      },
    );
    const millis = performance.now() - started;
    // An error answer applied nothing: the conversation a stateless endpoint is sent goes on without it.
    if (isSuccessStatus(answered.status))
      this.#messages.push({ role: "user", content: input }, { role: "assistant", content: answered.text });
    const url = new URL(answered.request.url);
    const answer = answerOf(answered);
    return {
      exchange: {
        request: {
          method: answered.request.method,
          url: answered.request.url,
          path: `${url.pathname}${url.search}`,
          headers: answered.request.headers,
          body: answered.request.body,
        },
        response: { status: answered.status, headers: answered.headers, body: answered.raw },
        millis,
      },
      answer,
      session: answered.session,
      ...(answered.toolCalls === undefined ? {} : { toolCalls: answered.toolCalls }),
      checks: [
        ...this.#checks(turn, answered, session),
        ...(turn.expectContentType === undefined ? [] : [contentTypeCheck(turn.expectContentType, answer)]),
        ...(answer.problems.length ? [check("transport", "body", answer.problems.join("; "))] : []),
      ],
    };
  }

  /** The http target's transport contract: the status the turn expects, and a session the server keeps naming. */
  #checks(turn: ScenarioTurn, answered: HttpTurnAnswer, known: string | undefined): Check[] {
    const expected = turn.expectedStatus ?? 200;
    const checks: Check[] = [statusCheck(expected, answered.status)];
    if (!this.#assigned) return checks;
    checks.push(check("transport", "session", answered.session ? undefined : "the answer names no session"));
    if (known !== undefined && answered.session !== undefined)
      checks.push(
        check(
          "transport",
          "session stable",
          answered.session === known ? undefined : `the session id changed from ${known} to ${answered.session}`,
        ),
      );
    return checks;
  }
}

/** What the answer claims (its step and completion, as the pointers read them) and, for a CSV answer, its rows. */
function answerOf(answered: HttpTurnAnswer): Answer {
  const claims: Record<string, unknown> = {};
  if (answered.currentStep !== undefined) claims["currentStep"] = answered.currentStep;
  if (answered.completed !== undefined) claims["completed"] = answered.completed;
  const mediaType = mediaTypeOf(answered.headers);
  const problems: string[] = [];
  let csv: Csv | undefined;
  if (mediaType === "text/csv" && isSuccessStatus(answered.status)) {
    try {
      csv = parseCsv(answered.raw);
    } catch (error) {
      problems.push(`the CSV body does not parse: ${(error as Error).message}`);
    }
  }
  return {
    mediaType,
    json: claims,
    events: undefined,
    ...(csv ? { csv } : {}),
    text: answered.text,
    problems,
    claimsOnly: true,
  };
}
