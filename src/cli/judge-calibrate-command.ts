/** Placeholder until the judge's calibrate command lands (issue 42); replaced before the issue is resolved. */
export async function judgeCalibrateCommand(_args: readonly string[]): Promise<number> {
  console.error("flowcheck judge calibrate is not built yet.");
  return 2;
}
