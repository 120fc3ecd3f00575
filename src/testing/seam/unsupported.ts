/**
 * What a reader found in a request that the seam cannot serve faithfully. It keeps reading after
 * the first find, so the call still carries what could be read, and reports the first one.
 */
export class Unsupported {
  #first: string | undefined;

  /** Notes that `value` at the JSON path `path` cannot be served, and why. */
  note(path: string, value: unknown, why: string): void {
    this.#first ??=
      `flowcheck's model seam cannot serve ${path} = ${shown(value)}: ${why}. ` +
      "Change the app's model call, or run this target against a real provider (FLOW_MODEL=live).";
  }

  get message(): string | undefined {
    return this.#first;
  }
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
