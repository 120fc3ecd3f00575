// The main job a user runs after every change: `npm run test:flows`, every flow suite, from
// command to exit, npm's own start included (median of a few runs, after one that is not counted:
// the first run after a change rebuilds the specs' bundle); and the strength run beside it. Like
// any run of those commands, they leave their results in test/.tmp/.
import { spread, timeCommand, type Options, type Spread } from "./startup.ts";

export const MAIN_JOB_COMMAND = ["npm", "run", "test:flows"] as const;
// The strength run of every scenario, which a pull request's CI runs: `npm run test:strength`.
export const STRENGTH_COMMAND = ["npm", "run", "test:strength"] as const;

/** `command`'s wall time over `runs` runs after an uncounted one; a run that fails stops the bench. */
export async function measureJob(
  command: readonly string[],
  runs: number,
  { root, env, onCleanup }: Pick<Options, "root" | "env" | "onCleanup">,
): Promise<Spread> {
  const times: number[] = [];
  for (let round = 0; round < runs + 1; round++) {
    const run = await timeCommand(command, root, env, onCleanup);
    if (run.code !== 0)
      throw new Error(
        `bench: ${command.join(" ")} exited ${run.code}:\n${run.output.split("\n").slice(-40).join("\n")}`,
      );
    if (round > 0) times.push(run.millis);
  }
  return spread(times);
}
