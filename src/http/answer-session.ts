import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import type { FlowDefinition } from "../engine/flow.ts";
import type { FlowEngine } from "../engine/flow-engine.ts";
import { renderSession } from "../engine/render-session.ts";
import type { SessionHead } from "../engine/session-document.ts";
import { acceptedTypes, renderableTypes } from "./accepted-types.ts";
import type { HttpRequest, HttpResponse } from "./http-exchange.ts";
import { jsonResponse } from "./json-response.ts";
import { renderedResponse } from "./rendered-response.ts";

const SESSION_PATH = /^\/ai\/sessions\/([^/]+)$/;

/** The id in a `/ai/sessions/:id` path; undefined for any other path. */
export function sessionIdOf(path: string): string | undefined {
  return SESSION_PATH.exec(path)?.[1];
}

/** The stored head; `session_not_found` when there is none, or none this version can read (a message to it would reset it). */
async function headOf(engine: FlowEngine, id: string): Promise<SessionHead> {
  const shown = id.slice(0, 80);
  let head: SessionHead | undefined;
  try {
    head = await engine.store.fetchHead(id);
  } catch (error) {
    if (!isFlowcheckError(error, "session_unreadable")) throw error;
    const { reason } = error.details as { reason: string };
    throw new FlowcheckError(
      "session_not_found",
      `Session "${shown}" is stored, but this version cannot read it (${reason}), so there is none to show; ` +
        `a message to it starts a new session in its place.`,
    );
  }
  if (!head)
    throw new FlowcheckError(
      "session_not_found",
      `There is no session "${shown}". Start one with POST /ai/chat and "flow".`,
    );
  return head;
}

/** The session's flow, or undefined when this server no longer serves it: the view is still answered, unrendered. */
function flowOf(engine: FlowEngine, name: string): FlowDefinition | undefined {
  try {
    return engine.flow(name);
  } catch (error) {
    if (isFlowcheckError(error, "unknown_flow")) return undefined;
    throw error;
  }
}

/**
 * `GET /ai/sessions/:id`: the session as a chat answer describes it (flow, step, run status,
 * completed, turns), or, when the client prefers a type the flow renders (`Accept: text/csv`), that
 * rendering. It reads and never changes the session, so it answers at any time, after completion too.
 */
export async function answerSession(engine: FlowEngine, id: string, request: HttpRequest): Promise<HttpResponse> {
  const head = await headOf(engine, id);
  const types = renderableTypes(acceptedTypes(request));
  const flow = types.length ? flowOf(engine, head.flow.name) : undefined;
  const rendered = flow && renderSession(flow, head, types);
  if (rendered) return renderedResponse(rendered, head.id);
  const view = {
    success: true,
    session: head.id,
    flow: head.flow.name,
    currentStep: head.flow.currentStep,
    runStatus: head.runStatus,
    completed: head.runStatus === "completed",
    turns: head.turns,
  };
  return jsonResponse(200, view, head.id);
}
