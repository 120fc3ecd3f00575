import { FlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import { requestTarget, type TargetExchange, type TargetRequest } from "../request-target.ts";

export interface HttpRequest extends Omit<TargetRequest, "fixes"> {
  /** The prefix of the target's keys in flowcheck.config.json (`targets.shop.`, or ""), for messages. */
  at: string;
  /** What to fix when the server refuses the request: the config keys that made it. */
  made: string;
}

/** `requestTarget` for an http target: its errors name the keys of the entry at `at` to fix. */
export function httpRequest({ at, made, ...request }: HttpRequest): Promise<TargetExchange> {
  return requestTarget({
    ...request,
    fixes: {
      slow: `the server may be stuck, or slower than that: raise ${at}timeoutMs in flowcheck.config.json if so.`,
      unreachable: `is the server running? Check ${at}baseUrl in flowcheck.config.json.`,
      refused: `The server refused the request: see its log, and if the request is wrong fix ${made} in flowcheck.config.json.`,
    },
  });
}

/**
 * The headers a request sends: `own` under the entry's configured ones, which win. Names are
 * lower-cased first, since fetch would join `Accept` and `accept` into one header of both values.
 */
export function requestHeaders(
  own: Record<string, string>,
  configured: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(own), ...Object.entries(configured)])
    headers[name.toLowerCase()] = value;
  return headers;
}

/** `path` under `baseUrl` (`at` prefixes the target's keys in messages), keeping a base path (`http://h/api` + `/chat` is `http://h/api/chat`). */
export function targetUrl(baseUrl: string, path: string, at: string): string {
  const url = `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  if (!URL.canParse(url)) {
    throw new FlowcheckError(
      "config_invalid",
      `flowcheck.config.json: ${at}baseUrl ${show(baseUrl)} and the path ${show(path)} make ${show(url)}, ` +
        "which is not a URL; baseUrl is like http://127.0.0.1:8000.",
    );
  }
  return url;
}
