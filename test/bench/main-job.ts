// The main job a user runs after every change: `npm run test:flows`, every flow suite, from
// command to exit, npm's own start included (median of a few runs, after one that is not counted:
// the first run after a change rebuilds the specs' bundle). Like any run of that command, it
// leaves test/.tmp/run-results.json and report.html behind.
import { spread, timeCommand, type Options, type Spread } from "./startup.ts";

export const MAIN_JOB_COMMAND = ["npm", "run", "test:flows"] as const;
const RUNS = 3;

export async function measureMainJob({
  root,
  env,
  onCleanup,
}: Pick<Options, "root" | "env" | "onCleanup">): Promise<Spread> {
  const times: number[] = [];
  for (let round = 0; round < RUNS + 1; round++) {
    const run = await timeCommand(MAIN_JOB_COMMAND, root, env, onCleanup);
    if (run.code !== 0)
      throw new Error(
        `bench: ${MAIN_JOB_COMMAND.join(" ")} exited ${run.code}:\n${run.output.split("\n").slice(-40).join("\n")}`,
      );
    if (round > 0) times.push(run.millis);
  }
  return spread(times);
}
