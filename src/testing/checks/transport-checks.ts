import { SESSION_HEADER } from "../../http/http-exchange.ts";
import { check, compared, type Check } from "./check.ts";
import type { ChatExchange } from "../client/chat-client.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { isSuccessStatus } from "../scenario/is-success-status.ts";

function headerOf(exchange: ChatExchange): string | undefined {
  const value = exchange.response.headers[SESSION_HEADER.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function errorSummary(answer: Answer): string {
  const error = answer.json?.["error"] as { code?: unknown; message?: unknown } | undefined;
  return error ? ` (${String(error.code)}: ${String(error.message)})` : "";
}

/**
 * The transport contract: the status, `success`, the body's shape, and one session id in body and
 * `CHAT_SESSION_ID` header, equal to each other and to the first turn's. Returns the session id the
 * answer carries.
 */
export function transportChecks(
  turn: ScenarioTurn,
  exchange: ChatExchange,
  answer: Answer,
  knownSession: string | undefined,
): { checks: Check[]; session: string | undefined } {
  const expectedStatus = turn.expectedStatus ?? 200;
  const checks = [...statusAndBodyChecks(expectedStatus, exchange.response.status, answer)];
  if (turn.expectContentType !== undefined) checks.push(contentTypeCheck(turn.expectContentType, answer));
  const ids = { header: headerOf(exchange), body: bodySessionOf(answer), known: knownSession };
  if (!isSuccessStatus(expectedStatus))
    return { checks: [...checks, ...errorChecks(answer, ids)], session: knownSession };
  const session = ids.header ?? ids.body;
  return { checks: [...checks, ...successChecks(answer, ids)], session: knownSession ?? session };
}

/** The session ids a turn's answer carries, and the one the conversation's first turn carried. */
interface SessionIds {
  header: string | undefined;
  body: string | undefined;
  known: string | undefined;
}

function bodySessionOf(answer: Answer): string | undefined {
  const session = answer.json?.["session"];
  return typeof session === "string" ? session : undefined;
}

/** The status the turn expects (200 unless it expects an error) against the one answered; `more` follows a mismatch's message. */
export function statusCheck(expected: number, status: number, more = ""): Check {
  return compared(
    "transport",
    "status",
    status === expected ? undefined : `expected status ${expected}, got ${status}${more}`,
    expected,
    status,
  );
}

function statusAndBodyChecks(expectedStatus: number, status: number, answer: Answer): Check[] {
  return [
    statusCheck(expectedStatus, status, errorSummary(answer)),
    check(
      "transport",
      "body",
      answer.problems.length
        ? answer.problems.join("; ")
        : answer.json || answer.csv
          ? undefined
          : `the ${answer.mediaType || "untyped"} body carries no JSON answer`,
    ),
  ];
}

/** A turn's `expectContentType` against the answer's media type, whichever kind of target answered. */
export function contentTypeCheck(expected: string, answer: Answer): Check {
  const wanted = expected.toLowerCase();
  return compared(
    "transport",
    "expectContentType",
    answer.mediaType === wanted ? undefined : `expected Content-Type ${wanted}, got ${answer.mediaType || "none"}`,
    wanted,
    answer.mediaType,
  );
}

/** A turn that should succeed: `success: true` and one session id, in header and body, stable across turns. */
function successChecks(answer: Answer, ids: SessionIds): Check[] {
  const json = answer.json;
  // A document answer (CSV) is the session rendered: it carries the id in the header alone.
  const document = answer.csv !== undefined;
  const checks: Check[] = [];
  if (!document)
    checks.push(
      compared(
        "transport",
        "success",
        json?.["success"] === true ? undefined : `expected "success": true, got ${JSON.stringify(json?.["success"])}`,
        true,
        json?.["success"],
      ),
    );
  checks.push(check("transport", "session header", ids.header ? undefined : `the ${SESSION_HEADER} header is missing`));
  if (!document) checks.push(check("transport", "session body", ids.body ? undefined : `the body has no "session" id`));
  if (ids.header && ids.body) {
    checks.push(
      check(
        "transport",
        "session ids agree",
        ids.header === ids.body
          ? undefined
          : `the body's session id ${ids.body} differs from the header's ${ids.header}`,
      ),
    );
  }
  const session = ids.header ?? ids.body;
  if (ids.known && session) {
    checks.push(
      check(
        "transport",
        "session stable",
        session === ids.known ? undefined : `the session id changed from ${ids.known} to ${session}`,
      ),
    );
  }
  return checks;
}

/** A turn that should fail: `success: false`, an error with code and message, and no other session's id. */
function errorChecks(answer: Answer, ids: SessionIds): Check[] {
  const json = answer.json;
  const error = json?.["error"] as { code?: unknown; message?: unknown } | undefined;
  const checks = [
    compared(
      "transport",
      "success",
      json?.["success"] === false ? undefined : `expected "success": false, got ${JSON.stringify(json?.["success"])}`,
      false,
      json?.["success"],
    ),
    check(
      "transport",
      "error",
      typeof error?.code === "string" && typeof error.message === "string"
        ? undefined
        : `expected "error": {"code", "message"}, got ${JSON.stringify(error)}`,
    ),
  ];
  const carried = ids.header ?? ids.body;
  if (ids.known && carried !== undefined) {
    checks.push(
      check(
        "transport",
        "session stable",
        carried === ids.known ? undefined : `the error carries session id ${carried}, not ${ids.known}`,
      ),
    );
  }
  return checks;
}
