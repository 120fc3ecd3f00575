import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

// The repository's own Biome: the package's launcher picks the native binary for this platform, and
// run by this Node it needs no shell.
const BIOME = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

export interface BiomeRun {
  code: number;
  output: string;
}

const run = promisify(execFile);

/** `biome <args>` in `cwd`, uncoloured, every diagnostic printed: its exit code and output. */
export function biome(cwd: string, args: readonly string[]): Promise<BiomeRun> {
  return run(process.execPath, [BIOME, ...args, "--colors=off", "--max-diagnostics=none"], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

/** The number in the summary's "Checked N files": what Biome read, not what it was given. */
export function checkedFiles(output: string): number {
  return Number(/Checked (\d+) files?/.exec(output)?.[1] ?? 0);
}

/** The files under the summary reporter's "The following files need to be formatted:", one `- path` a line. */
export function unformattedFiles(output: string): string[] {
  const list = output.split(/need to be formatted:\s*\n/)[1] ?? "";
  return [...list.matchAll(/^\s*- (\S.*)$/gm)].map((match) => match[1]!.trim());
}
