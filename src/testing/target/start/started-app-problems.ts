import { jsonPath } from "../../scenario/json-path.ts";
import { PORT_PLACEHOLDER } from "./port-placeholder.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

// Where a started app's port may be written: the only places flowcheck fills it.
const PORT_PLACES = [/^\/baseUrl$/, /^\/start\/ready$/, /^\/start\/env\/[^/]+$/];

/** Every string of `value` with its JSON Pointer under `at`. */
function stringsOf(value: unknown, at: string): Array<[string, string]> {
  if (typeof value === "string") return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, `${at}/${index}`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    stringsOf(item, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`),
  );
}

/**
 * What is wrong with how a target's entry asks for its app to be started and its model served,
 * `pointer` being the entry's JSON Pointer: `{{port}}` where nothing fills it, a `model` without
 * `start`, a `reuse` that would find nothing or a server that calls the real provider.
 */
export function startedAppProblems(entry: Record<string, unknown>, pointer: string): string[] {
  const start = isObject(entry["start"]) ? entry["start"] : undefined;
  const problems = stringsOf(entry, "")
    .filter(([at, text]) => text.includes(PORT_PLACEHOLDER) && (!start || !PORT_PLACES.some((place) => place.test(at))))
    .map(([at]) =>
      start
        ? `${jsonPath(pointer + at)}: ${PORT_PLACEHOLDER} is filled only in baseUrl, start.ready and start.env values; ` +
          "write the port another way here."
        : `${jsonPath(pointer + at)}: ${PORT_PLACEHOLDER} is the port of an app flowcheck starts, ` +
          `and the target has no "start"; add one, or write the port.`,
    );
  if (entry["model"] !== undefined && !start)
    problems.push(
      `${jsonPath(`${pointer}/model`)}: a model is served only to an app flowcheck starts ` +
        `(its URL reaches the app through its environment); add "start", or drop "model".`,
    );
  if (start?.["reuse"] !== true) return problems;
  if (entry["model"] !== undefined)
    problems.push(
      `${jsonPath(`${pointer}/start/reuse`)}: a server already running was not started with the model flowcheck serves, ` +
        `and would call the real provider; drop "reuse".`,
    );
  const found: Array<[string, unknown]> = [
    ["/start/ready", start["ready"]],
    ["/baseUrl", entry["baseUrl"]],
  ];
  for (const [at, text] of found)
    if (typeof text === "string" && text.includes(PORT_PLACEHOLDER))
      problems.push(
        `${jsonPath(pointer + at)}: ${PORT_PLACEHOLDER} is chosen at start, so a server already running ` +
          `cannot be found there; write its port in ready and baseUrl, or drop "reuse".`,
      );
  return problems;
}
