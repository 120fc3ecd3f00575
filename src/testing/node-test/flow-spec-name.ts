import { basename } from "node:path";
import { envPrefixOf } from "../../engine/env-prefix.ts";

/**
 * The file name of the spec that describes a flow's scenarios, by convention the kebab case of the
 * flow's name: `InvoiceFlow` → `invoice-flow.spec.ts` (in this repository, `test/flows/`).
 * `npm run test:flows -- <scenario paths>` runs a scenario through the spec so named after its
 * flow, without importing or reading any spec to find it.
 */
export function flowSpecName(flowName: string): string {
  return `${envPrefixOf(flowName).toLowerCase().replaceAll("_", "-")}.spec.ts`;
}

/** The spec files among `files` named after one of `flowNames` (see `flowSpecName`). */
export function specsOfFlows(files: readonly string[], flowNames: Iterable<unknown>): string[] {
  const names = new Set([...flowNames].flatMap((name) => (typeof name === "string" ? [flowSpecName(name)] : [])));
  return files.filter((file) => names.has(basename(file)));
}
