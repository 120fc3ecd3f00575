// Deliberately loose: one @, no spaces, a dotted domain. Deliverability is the mail server's business.
const EMAIL = /^([^\s@"<>(),;:]+)@([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})$/i;

/** The address trimmed, its domain in lower case (domains ignore case); undefined when it is not one. */
export function normalizeEmail(input: string): string | undefined {
  const text = input.trim();
  const match = text.length <= 254 ? EMAIL.exec(text) : null;
  return match ? `${match[1]!}@${match[2]!.toLowerCase()}` : undefined;
}
