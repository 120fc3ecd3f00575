// The command `npm test` and `npm run test:*` run. Plain JavaScript, so that an unsupported Node
// is told so in one line before anything else loads; then tsx's hooks, in this thread, load the
// TypeScript of the runner, the specs and the code under test.
import "./supported-node.mjs";
import { spawnSync } from "node:child_process";
import { register } from "tsx/esm/api";
import { hasTestFilter, testFilterFlags } from "../testing/node-test/test-filters.mjs";

// Node 22's run() ignores its name filters and `only` when it runs the files in this process
// (nodejs/node#57399, fixed from Node 24): they are read from node's own flags alone. There,
// a run that filters starts itself again with them as node's flags.
const args = process.argv.slice(2);
if (process.versions.node.startsWith("22.") && hasTestFilter(args) && !hasTestFilter(process.execArgv)) {
  const flags = testFilterFlags(args);
  const again = spawnSync(process.execPath, [...process.execArgv, ...flags, process.argv[1] ?? "", ...args], {
    stdio: "inherit",
  });
  process.exit(again.status ?? 1);
}

register();
const { runSpecsCommand } = await import("./run-specs-command.ts");
process.exitCode = await runSpecsCommand(args);
