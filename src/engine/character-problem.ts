// Unicode's "control" category (Cc) is exactly C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_TAB_AND_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
// With the `u` flag a surrogate pair is one code point above U+FFFF, so this range finds only lone halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function codePointOf(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why a tool must not save `text`, or `undefined` when it may: the rule for every tool that saves
 * free text (a name, a city, an address, an email, a description). Text a person typed never holds
 * a control character (C0, DEL or C1: invisible, and a NUL or an ESC breaks what the text goes into
 * next, a database, a terminal, a log) nor a lone surrogate (half of a character such as an emoji,
 * which strict JSON parsers and UTF-8 refuse). The answer is a sentence the model can pass on, and
 * it never quotes the text, so the character is not sent on to the user.
 *
 * TAB, LF and CR are refused too, unless `multiline` is set: in a one-line value (a name, an email)
 * a line break starts a new line of every prompt, CSV record and log line the value is written
 * into; a note or comment may keep them. Check the text as the tool will save it: a tool that first
 * collapses whitespace (`.trim().replace(/\s+/g, " ")`) has turned a pasted tab into a space.
 *
 * @example
 * const name = args.name.trim().replace(/\s+/g, " ");
 * const problem = characterProblem(name, "The name");
 * if (problem) return stay(problem);
 * // "John\u0000Wick" → "The name contains a control character (U+0000), which cannot be saved. Ask the user to type it again."
 */
export function characterProblem(
  text: string,
  what: string,
  options: { multiline?: boolean } = {},
): string | undefined {
  const control = (options.multiline ? CONTROL_BUT_TAB_AND_LINE_BREAKS : CONTROL).exec(text);
  if (control)
    return `${what} contains a control character (${codePointOf(control[0])}), which cannot be saved. Ask the user to type it again.`;
  if (!text.isWellFormed()) {
    const half = LONE_SURROGATE.exec(text)![0];
    return (
      `${what} contains a broken character (${codePointOf(half)}, half of a character such as an emoji), ` +
      `which cannot be saved. Ask the user to type it again.`
    );
  }
  return undefined;
}
