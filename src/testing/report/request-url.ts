import type { TurnReport } from "../checks/turn-report.ts";

/** Where a turn's request went: its whole URL, or for results written before that was kept, its path. */
export function requestUrl(request: Pick<NonNullable<TurnReport["request"]>, "url" | "path">): string {
  return request.url ?? request.path;
}
