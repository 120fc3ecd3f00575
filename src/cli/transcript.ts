import { readFileSync } from "node:fs";
import { renderTranscript } from "../testing/report/render-transcript.ts";
import type { Transcript } from "../testing/report/transcript.ts";
import { answerHelp } from "./answer-help.ts";

const USAGE = `Usage: npm run transcript -- <test/.tmp/…-failure.json>

Prints a failure transcript, which a failing scenario run writes under test/.tmp/ and names in
its failure message: each turn's input, answer, checks and stored session, for reading instead
of re-running the conversation.`;
answerHelp(USAGE);

const [file] = process.argv.slice(2);
if (!file) {
  console.error(USAGE);
  process.exit(2);
}
let transcript: Transcript;
try {
  transcript = JSON.parse(readFileSync(file, "utf8")) as Transcript;
} catch (error) {
  console.error(`Cannot read ${file}: ${(error as Error).message}`);
  process.exit(2);
}
if (transcript.transcript !== 1 || !Array.isArray(transcript.turns)) {
  console.error(`${file} is not a flowcheck transcript (no "transcript": 1 and "turns").`);
  process.exit(2);
}
process.stdout.write(renderTranscript(transcript));
