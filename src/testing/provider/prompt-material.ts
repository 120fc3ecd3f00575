/**
 * A prompt's untrusted texts as one JSON object, the whole of a user message. JSON escaping keeps
 * every quote and line break of a value inside its string, so no value can end its field or start
 * another, with no boundary for a text to guess and no escaping rule of our own to get right.
 */
export function promptMaterial(material: object): string {
  // JSON.stringify leaves U+0085, U+2028 and U+2029 raw, and some readers break lines at them;
  // escaped, every line of the message is a line of the object's own layout.
  return JSON.stringify(material, null, 2).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
