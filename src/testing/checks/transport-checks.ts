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
  const status = exchange.response.status;
  const checks: Check[] = [
    compared(
      "transport",
      "status",
      status === expectedStatus ? undefined : `expected status ${expectedStatus}, got ${status}${errorSummary(answer)}`,
      expectedStatus,
      status,
    ),
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
  if (turn.expectContentType !== undefined) {
    const wanted = turn.expectContentType.toLowerCase();
    checks.push(
      compared(
        "transport",
        "expectContentType",
        answer.mediaType === wanted ? undefined : `expected Content-Type ${wanted}, got ${answer.mediaType || "none"}`,
        wanted,
        answer.mediaType,
      ),
    );
  }
  const json = answer.json;
  const header = headerOf(exchange);
  const bodySession = typeof json?.["session"] === "string" ? json["session"] : undefined;

  if (isSuccessStatus(expectedStatus)) {
    // A document answer (CSV) is the session rendered: it carries the id in the header alone.
    const document = answer.csv !== undefined;
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
    checks.push(check("transport", "session header", header ? undefined : `the ${SESSION_HEADER} header is missing`));
    if (!document)
      checks.push(check("transport", "session body", bodySession ? undefined : `the body has no "session" id`));
    if (header && bodySession) {
      checks.push(
        check(
          "transport",
          "session ids agree",
          header === bodySession
            ? undefined
            : `the body's session id ${bodySession} differs from the header's ${header}`,
        ),
      );
    }
    const session = header ?? bodySession;
    if (knownSession && session) {
      checks.push(
        check(
          "transport",
          "session stable",
          session === knownSession ? undefined : `the session id changed from ${knownSession} to ${session}`,
        ),
      );
    }
    return { checks, session: knownSession ?? session };
  }

  const error = json?.["error"] as { code?: unknown; message?: unknown } | undefined;
  checks.push(
    compared(
      "transport",
      "success",
      json?.["success"] === false ? undefined : `expected "success": false, got ${JSON.stringify(json?.["success"])}`,
      false,
      json?.["success"],
    ),
  );
  checks.push(
    check(
      "transport",
      "error",
      typeof error?.code === "string" && typeof error.message === "string"
        ? undefined
        : `expected "error": {"code", "message"}, got ${JSON.stringify(error)}`,
    ),
  );
  if (knownSession && (header ?? bodySession) !== undefined) {
    const carried = header ?? bodySession;
    checks.push(
      check(
        "transport",
        "session stable",
        carried === knownSession ? undefined : `the error carries session id ${carried}, not ${knownSession}`,
      ),
    );
  }
  return { checks, session: knownSession };
}
