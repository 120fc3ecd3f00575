import type { FlowEntry } from "../../src/engine/index.ts";
import { loadScenario, runScenario, startScenarioTarget } from "../../src/testing/index.ts";
import { envWith } from "./env-with.ts";

/** Plays a scenario file in this process with `env` over the environment; its outcome and the first failure. */
export async function playScenarioFile(
  file: string,
  flows: readonly FlowEntry[],
  root: string,
  env: Record<string, string | undefined>,
): Promise<{ outcome: string; failure: string | undefined }> {
  const loaded = loadScenario(
    file,
    flows.map((entry) => entry.flow),
    { root },
  );
  const target = await startScenarioTarget(loaded, {
    flows,
    scratchDir: root,
    env: envWith({ FLOW_BASE_URL: undefined, ...env }),
  });
  let outcome = "unfinished";
  let failure: string | undefined;
  try {
    for await (const event of runScenario(loaded, target)) {
      if (event.type === "turn:end") failure ??= event.report.failure;
      if (event.type === "final") failure ??= event.report.failure;
      if (event.type === "scenario:end") outcome = event.outcome;
    }
  } finally {
    await target.close();
  }
  return { outcome, failure };
}
