import type { SeamMessage } from "./seam-request.ts";

/**
 * A user's message as the seam compares it: runs of whitespace made one space and the ends trimmed,
 * since an app may re-wrap or trim what the user typed before it reaches the model.
 */
export function normalizedInput(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The user messages of a call, normalized: the last one (the turn's input) and those before it. */
export function userInputsOf(messages: readonly SeamMessage[]): { last: string | undefined; earlier: string[] } {
  const inputs = messages.flatMap((message) => (message.role === "user" ? [normalizedInput(message.content)] : []));
  return { last: inputs.at(-1), earlier: inputs.slice(0, -1) };
}

/**
 * Whether `part` appears in `whole` in order, other items allowed between: the earlier user
 * messages of a call against a conversation's earlier inputs, as an app may drop a message whose
 * turn it refused from what it sends its model.
 */
export function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const item of whole) if (at < part.length && item === part[at]) at += 1;
  return at === part.length;
}
