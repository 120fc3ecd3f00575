import { readFileSync } from "node:fs";
import { renderTranscript } from "../testing/render-transcript.ts";
import type { Transcript } from "../testing/transcript.ts";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("Usage: npm run transcript -- <test/.tmp/…-failure.json>");
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
