/**
 * This process's environment with `values` over it (undefined unsets), for a target to be read
 * with (`startScenarioTarget(…, { env })`): tests never write `process.env`, which tests running
 * at the same time in this process would see.
 */
export function envWith(values: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...process.env, ...values };
}
