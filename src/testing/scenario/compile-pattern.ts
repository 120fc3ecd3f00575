/** `/pattern/flags` or a bare pattern (no flags). */
export function compilePattern(source: string): RegExp {
  // Any letters after the last slash are flags, so a typo'd flag fails to compile instead of matching text.
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(source);
}
