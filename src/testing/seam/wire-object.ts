/** A JSON object as it arrived on the wire: any field may be missing or of any type. */
export type WireObject = Record<string, unknown>;

export function isWireObject(value: unknown): value is WireObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
