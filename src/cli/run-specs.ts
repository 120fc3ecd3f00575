import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

// Node 20's test runner expands no globs and takes options only before the files, so this finds
// the spec files and puts node:test's options (e.g. --test-name-pattern) first.
// `--repeat N` is ours: it plays every scenario N times (FLOW_REPEAT) to measure a live flow's steadiness.
// Usage: run-specs <folder|file>... [--repeat N] [node:test options]
const SKIPPED_FOLDERS = new Set(["node_modules", ".tmp", "bench", "fixtures"]);

function specsUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : specsUnder(child);
      return entry.name.endsWith(".spec.ts") ? [child] : [];
    })
    .sort();
}

const args = process.argv.slice(2);
const repeatAt = args.findIndex((arg) => arg === "--repeat" || arg.startsWith("--repeat="));
if (repeatAt !== -1) {
  const [flag] = args.splice(repeatAt, 1);
  const value = flag!.includes("=") ? flag!.split("=")[1] : args.splice(repeatAt, 1)[0];
  if (!value || !/^[1-9][0-9]*$/.test(value)) {
    console.error(`run-specs: --repeat takes a whole number of runs, got ${value ?? "nothing"}.`);
    process.exit(2);
  }
  process.env["FLOW_REPEAT"] = value;
}
const firstOption = args.findIndex((arg) => arg.startsWith("-"));
const paths = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);
const files = paths.flatMap(specsUnder);
if (files.length === 0) {
  console.error(`run-specs: no *.spec.ts under ${paths.join(", ") || "(no path given)"}; nothing to run.`);
  process.exit(1);
}
const child = spawn(process.execPath, ["--import", "tsx", "--test", ...options, ...files], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
