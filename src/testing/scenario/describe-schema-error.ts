import type { ErrorObject } from "ajv";
import { closestName } from "./closest-name.ts";
import { jsonPath } from "./json-path.ts";
import { show } from "./show.ts";

// The patterns of our schemas (scenario.schema.json, flowcheck.config.schema.json), in words.
const PATTERN_HINTS: Record<string, string> = {
  "^[A-Z][A-Za-z0-9]*$": "a PascalCase step name such as NameStep",
  "^[A-Z][A-Z0-9_]*$": "an UPPER_SNAKE_CASE variable name",
  "^[a-z0-9][a-z0-9-]*$": "lower-case letters, digits and dashes",
  "^[\\w.+-]+/[\\w.+-]+$": "a media type such as text/event-stream",
  "^(/([^~/]|~[01])*)*$": "a JSON Pointer such as /state/step (each part after a /, with ~0 for ~ and ~1 for /)",
  "^(https?://|\\$\\{)": "an http:// or https:// URL, or a ${VAR} reference that holds one",
  "^/": "a path that starts with /, such as /chat",
  "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$": "a header name such as X-Api-Key",
};

/** How a value's kind is said: `an object`, `a string`, `null`. */
export function kindOf(value: unknown): string {
  return value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;
}

/** The keys of an anyOf whose every branch requires one key: "at least one of these". */
function requiredOfEach(branches: unknown): string[] | undefined {
  if (!Array.isArray(branches)) return undefined;
  const keys = branches.map((branch) => (branch as { required?: unknown[] }).required);
  return keys.every((key) => key?.length === 1) ? keys.map((key) => String(key![0])) : undefined;
}

/**
 * One of ajv's errors (compiled with `verbose`, so it carries the value and its schema) as a
 * problem of a file: the JSON path, the value found and what is allowed there, with the key meant
 * for an unknown one. `where` adds to a path what the file's kind knows of it (a turn's label).
 */
export function describeSchemaError(
  error: ErrorObject,
  where: (path: string, pointer: string) => string = (path) => path,
): string {
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  const at = where(jsonPath(error.instancePath, propertyName), error.instancePath);
  const value = error.data;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(error.params["additionalProperty"]);
      const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = closestName(key, known);
      const keyAt = where(jsonPath(error.instancePath, key), error.instancePath);
      return guess
        ? `${keyAt}: \`${key}\` is not a known key; did you mean \`${guess}\`?`
        : `${keyAt}: \`${key}\` is not a known key; the keys allowed here are ${known.join(", ")}.`;
    }
    case "required":
      return `${at}: the required key \`${String(error.params["missingProperty"])}\` is missing.`;
    case "dependentRequired": {
      const key = String(error.params["property"]);
      const keyAt = where(jsonPath(error.instancePath, key), error.instancePath);
      return `${keyAt}: needs \`${String(error.params["missingProperty"])}\` beside it.`;
    }
    case "anyOf": {
      const needed = requiredOfEach(error.schema);
      return needed
        ? `${at}: says none of ${needed.map((key) => `\`${key}\``).join(", ")}; give at least one of them.`
        : `${at}: ${show(value)} matches none of the forms the schema allows.`;
    }
    case "not": {
      // `{ "not": {} }` marks a key that may not be set; its description says whose it is.
      const why = (error.parentSchema as { description?: string }).description;
      if (Object.keys(error.schema as object).length === 0)
        return `${at}: may not be set here, so ${show(value)} is refused.${why ? ` ${why}` : ""}`;
      break;
    }
    case "minLength":
      if (error.params["limit"] === 1) return `${at}: is an empty string; expected text.`;
      break;
    case "type":
      return `${at}: ${show(value)} is ${kindOf(value)}; expected ${String(error.params["type"])}.`;
    case "enum":
      return `${at}: ${show(value)} is not one of ${(error.params["allowedValues"] as unknown[]).map((value) => show(value)).join(", ")}.`;
    case "pattern": {
      const pattern = String(error.params["pattern"]);
      const shown = propertyName === undefined ? show(value) : `the key ${show(propertyName)}`;
      return `${at}: ${shown} is not ${PATTERN_HINTS[pattern] ?? `matching ${pattern}`}.`;
    }
  }
  return `${at}: ${show(value)} ${error.message ?? "is not valid"}.`;
}
