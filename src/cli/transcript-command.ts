import { readFileSync } from "node:fs";
import { renderResultConversation, renderTranscript } from "../testing/report/render-transcript.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import type { Transcript } from "../testing/report/transcript.ts";
import { answerHelp } from "./answer-help.ts";

const USAGE = `Usage: flowcheck transcript <test/.tmp/…-failure.json>
       flowcheck transcript test/.tmp/run-results.json [<conversation name or id>...]

Prints a failure transcript, which a failing scenario run writes under test/.tmp/ and names in
its failure message: each turn's input, answer, checks and stored session, for reading instead
of re-running the conversation. Given a run's results (every run writes test/.tmp/run-results.json;
flowcheck merge merges shards' into one), it prints the conversations named, by name
(basic-flow, team/ada.case-1) or id, or without names every conversation that failed.`;

/** Prints the conversations of `results` that `names` name, or the failed ones; the exit code. */
function printConversations(file: string, results: RunResults, names: readonly string[]): number {
  const all = results.conversations;
  const chosen = names.length
    ? all.filter((c) => names.includes(c.name) || names.includes(c.id))
    : all.filter((c) => c.outcome === "failed");
  const unknown = names.filter((name) => !all.some((c) => c.name === name || c.id === name));
  if (unknown.length) {
    console.error(
      `${file} has no conversation ${unknown.map((name) => JSON.stringify(name)).join(", ")}; it has ${[...new Set(all.map((c) => c.name))].join(", ") || "none"}.`,
    );
    return 2;
  }
  if (chosen.length === 0)
    console.log(`No conversation failed in ${file} (${all.length} in all); name one to print it.`);
  process.stdout.write(chosen.map(renderResultConversation).join("\n"));
  return 0;
}

/** `flowcheck transcript <file> [<name>...]`: 0 once printed, 2 for a file it cannot print. */
export async function transcriptCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const [file, ...names] = args;
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  let read: Partial<Transcript> & Partial<RunResults>;
  try {
    read = JSON.parse(readFileSync(file, "utf8")) as typeof read;
  } catch (error) {
    console.error(`Cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }
  if (read.results === 1 && Array.isArray(read.conversations))
    return printConversations(file, read as RunResults, names);
  if (read.transcript === 1 && Array.isArray(read.turns)) {
    process.stdout.write(renderTranscript(read as Transcript));
    return 0;
  }
  console.error(
    `${file} is neither a flowcheck transcript ("transcript": 1 and "turns") nor a run's results ("results": 1 and "conversations").`,
  );
  return 2;
}
