import { failed, passed, skipped, type Check } from "../checks/check.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";

/** `restartBefore` or `clockAt`: the target booted again (with its clock moved), or why it could not be: it lacks `restart`. */
export async function restartCheck(target: ScenarioTarget, clock: string | undefined): Promise<Check> {
  const name = clock === undefined ? "restartBefore" : "clockAt";
  const elsewhere = target.description.elsewhere ?? "FLOW_BASE_URL";
  const restart = target.capabilities?.restart;
  if (!restart) {
    // A restart only shows more; a clock that cannot be moved makes the turn meaningless.
    return clock === undefined
      ? skipped(
          "persisted",
          name,
          `the target runs elsewhere (${elsewhere}) and cannot be restarted from here; the turn was played without a restart`,
        )
      : failed(
          "persisted",
          name,
          `the target runs elsewhere (${elsewhere}), so its clock cannot be moved to ${clock}; ` +
            `play this scenario against the app in the test process`,
        );
  }
  try {
    await restart(clock === undefined ? {} : { clock });
    return passed("persisted", name);
  } catch (error) {
    return failed("persisted", name, `the app could not be booted again on its store: ${(error as Error).message}`);
  }
}
