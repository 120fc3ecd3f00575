import type { Unsupported } from "./unsupported.ts";

/**
 * A message's content as one text: a string as it is, null as "", an array of parts whose `type`
 * is one of `textTypes` joined by newlines. Any other part (an image, audio, a file) is noted as
 * unsupported at its path and left out.
 */
export function contentText(
  content: unknown,
  path: string,
  textTypes: readonly string[],
  unsupported: Unsupported,
): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) {
    unsupported.note(path, content, "content is a string or an array of text parts");
    return "";
  }
  const texts: string[] = [];
  content.forEach((part: { type?: unknown; text?: unknown }, index) => {
    if (textTypes.includes(part?.type as string) && typeof part.text === "string") texts.push(part.text);
    else unsupported.note(`${path}[${index}].type`, part?.type, `only text parts (${textTypes.join(", ")}) are served`);
  });
  return texts.join("\n");
}
