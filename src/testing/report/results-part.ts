import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ResultsPartLine } from "./run-results.ts";

/** The folder, under a run's artifacts folder, where each test process writes its part of the run's results. */
export const RESULTS_PARTS = "results";

/** What a conversation still open when the process exits is written as: the recorder's last word. */
export interface OpenConversation {
  closing(): ResultsPartLine;
}

const open = new Map<OpenConversation, { artifactsDir: string; run: string }>();
let exitHooked = false;

function partFile(artifactsDir: string, run: string): string {
  const dir = join(artifactsDir, RESULTS_PARTS);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${run}-${process.pid}.jsonl`);
}

/**
 * Appends one line to this process's part of run `run` (`<artifactsDir>/results/<run>-<pid>.jsonl`),
 * which run-specs merges when its processes are done. A line per conversation, appended when it
 * ends, so a process cut short keeps what it finished; without a run (a spec run by node:test
 * itself, not by run-specs) nobody would merge it, so nothing is written.
 */
export function writeResultsLine(artifactsDir: string, run: string | undefined, line: ResultsPartLine): void {
  if (run === undefined) return;
  appendFileSync(partFile(artifactsDir, run), `${JSON.stringify(line)}\n`);
}

/**
 * Keeps `conversation` to be written when the process exits, unless `settle` is called first: a
 * suite filtered out or cancelled never ends, and still belongs in the results, saying so.
 */
export function keepOpen(artifactsDir: string, run: string | undefined, conversation: OpenConversation): { settle(): void } {
  if (run === undefined) return { settle: () => undefined };
  open.set(conversation, { artifactsDir, run });
  if (!exitHooked) {
    exitHooked = true;
    // Synchronous on purpose: `exit` runs no more callbacks after it.
    process.on("exit", () => {
      for (const [each, where] of open) writeResultsLine(where.artifactsDir, where.run, each.closing());
      open.clear();
    });
  }
  return { settle: () => void open.delete(conversation) };
}
