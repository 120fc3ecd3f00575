const YES = /^(?:yes|y|yep|yeah|sure|ok|okay|confirm(?:ed)?|issue(?: it)?|go ahead|correct|looks good)\b/;
const NO = /^(?:no|n|nope|not yet|wait|change|edit|fix)\b/;

/** "Yes, issue it!" → "yes"; "no, one more item" → "no"; anything else → undefined (ask again). */
export function readConfirmation(answer: string): "yes" | "no" | undefined {
  const words = answer
    .trim()
    .toLowerCase()
    .replace(/[.!,;:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (YES.test(words)) return "yes";
  if (NO.test(words)) return "no";
  return undefined;
}
