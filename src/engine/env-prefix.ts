/** `HomeInsuranceFlow` → `HOME_INSURANCE_FLOW`: how a flow's own variables (`<FLOW>_CURRENT_DATE`, …) begin. */
export function envPrefixOf(flowName: string): string {
  return flowName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
