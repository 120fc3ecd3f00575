/** Placeholder until the judge's label command lands (issue 42); replaced before the issue is resolved. */
export async function judgeLabelCommand(_args: readonly string[]): Promise<number> {
  console.error("flowcheck judge label is not built yet.");
  return 2;
}
