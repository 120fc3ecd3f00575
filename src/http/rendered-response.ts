import type { Rendering } from "../engine/render-session.ts";
import { SESSION_HEADER, type HttpResponse } from "./http-exchange.ts";

/** A session answered in a shape its flow renders (e.g. text/csv), with its id in the header as every answer about it. */
export function renderedResponse(rendering: Rendering, session: string): HttpResponse {
  return {
    status: 200,
    headers: { "Content-Type": `${rendering.mediaType}; charset=utf-8`, [SESSION_HEADER]: session },
    body: rendering.body,
  };
}
