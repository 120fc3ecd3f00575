#!/usr/bin/env node
// `flowcheck <command>`, the package's one command: plain JavaScript, so that an unsupported Node
// is told so in one line before anything else loads; then tsx's hooks, in this thread, load the
// TypeScript of the commands, and of the specs and the code under test that `flowcheck test` runs.
import "./supported-node.mjs";
import { spawnSync } from "node:child_process";
import module from "node:module";
import { register } from "tsx/esm/api";
import { hasTestFilter, testFilterFlags } from "../testing/node-test/test-filters.mjs";

// Node 22's run() ignores its name filters and `only` when it runs the files in this process
// (nodejs/node#57399, fixed from Node 24): they are read from node's own flags alone. There,
// a `flowcheck test` that filters starts itself again with them as node's flags.
const args = process.argv.slice(2);
const testArgs = args[0] === "test" ? args.slice(1) : [];
if (process.versions.node.startsWith("22.") && hasTestFilter(testArgs) && !hasTestFilter(process.execArgv)) {
  const flags = testFilterFlags(testArgs);
  const again = spawnSync(process.execPath, [...process.execArgv, ...flags, process.argv[1] ?? "", ...args], {
    stdio: "inherit",
  });
  process.exit(again.status ?? 1);
}

// V8's compiled code of the modules kept between commands, as Node keeps it (in the system's
// temporary folder, keyed by each file's content): a command starts with less to compile
// (`flowcheck test` of one scenario took 0.50 s of CPU against 0.56 s without).
module.enableCompileCache();
register();
const { flowcheckCommand } = await import("./flowcheck-command.ts");
process.exitCode = await flowcheckCommand(args);
