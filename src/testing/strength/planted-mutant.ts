import type { TargetMutant } from "../target/scenario-target.ts";
import { alteredStreamHandler } from "./altered-stream.ts";
import { mutatedFlow } from "./mutated-flow.ts";
import type { Mutant } from "./mutant.ts";

/** `mutant` as the app in this process takes it: the flows it is built with, and the handler it answers with. */
export function plantedMutant(mutant: Mutant): TargetMutant {
  return {
    id: mutant.id,
    flows: (entries) => entries.map((entry) => ({ ...entry, flow: mutatedFlow(entry.flow, mutant) })),
    handler: (app) => (mutant.change.kind === "alter-stream" ? alteredStreamHandler(app, mutant.flow) : app.handler),
  };
}
