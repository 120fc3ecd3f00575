/** `value` as the JSON it holds when it is JSON text; other text, and any other value, as it is. */
function parsedJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * A called tool's arguments as an answer gave them: JSON text parsed (empty text is no arguments,
 * `{}`, as a model sends for a tool without parameters), text that is not JSON kept as text, a JSON
 * value as it is.
 *
 * @example toolCallArgs('{"city":"Lisbon"}') // { city: "Lisbon" }
 */
export function toolCallArgs(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? {} : parsedJsonText(value);
}

/**
 * What a called tool returned, as an answer gave it: JSON text parsed, other text kept as text, a
 * JSON value as it is.
 *
 * @example toolCallOutput('{"saved":true}') // { saved: true }
 */
export function toolCallOutput(value: unknown): unknown {
  return parsedJsonText(value);
}
