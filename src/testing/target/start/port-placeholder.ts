/** Where a started app's port goes, in a target's `baseUrl`, `start.ready` and `start.env` values. */
export const PORT_PLACEHOLDER = "{{port}}";

/** `text` with every `{{port}}` replaced by `port`. */
export function withPort(text: string, port: number): string {
  return text.replaceAll(PORT_PLACEHOLDER, String(port));
}
