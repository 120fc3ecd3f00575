import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { isFlowcheckError } from "../errors.ts";
import { registeredFlows } from "../flows/index.ts";
import { ConversationRecorder } from "../testing/capture/conversation-recorder.ts";
import { describeTurn } from "../testing/capture/describe-turn.ts";
import { answerHelp } from "./answer-help.ts";
import { dotenvDefaults } from "./dotenv-defaults.ts";

const USAGE = `Usage: npm run scenario:record -- <FlowName> [--dir <folder>]

Holds a conversation with the flow in this process (FLOW_MODEL scripted by default, or live; record
is live with its cassette kept). Each answer shows the step, the run status and what changed in the
state. Type a message, or:
  /save <name> [--force]  write <folder>/<name>.scenario.json (folder default: scenarios), and the
                          cassette with the live model
  /undo                   drop the last turn
  /quit                   leave
Works with piped input too: printf 'John Wick\\n/save my-check\\n/quit\\n' | npm run -s scenario:record -- BasicFlow`;
answerHelp(USAGE);

function parsed(): { flowName: string; dir: string } {
  try {
    const { values, positionals } = parseArgs({ options: { dir: { type: "string" } }, allowPositionals: true });
    if (positionals.length === 1) return { flowName: positionals[0]!, dir: values.dir ?? "scenarios" };
  } catch (error) {
    console.error((error as Error).message);
  }
  console.error(USAGE);
  process.exit(2);
}

function failed(error: unknown): void {
  console.error(isFlowcheckError(error) ? `flowcheck: ${error.code}: ${error.message}` : error);
  // Piped, the exit status is all a script sees of a failed line.
  if (!process.stdin.isTTY) process.exitCode = 1;
}

/** Whether the conversation has turns, or lost one, since it was last saved. */
let unsaved = false;

/** Runs one line: a command or a message. Returns false on /quit. */
async function handle(recorder: ConversationRecorder, flowName: string, line: string): Promise<boolean> {
  const [command, ...words] = line.trim().split(/\s+/);
  if (command === "/quit") return false;
  if (command === "/undo") {
    const dropped = await recorder.undo();
    unsaved ||= dropped !== undefined;
    console.log(
      dropped
        ? `flowcheck: dropped "${dropped.input}"; ${recorder.turns.length} turns kept`
        : "flowcheck: there is no turn to drop",
    );
  } else if (command === "/save") {
    const name = words.find((word) => word !== "--force");
    if (!name) return (console.log("flowcheck: /save needs a name, e.g. /save tea-check"), true);
    const written = await recorder.save(name, words.includes("--force"));
    unsaved = false;
    console.log(
      `flowcheck: wrote ${written.file}${written.cassette ? ` and ${written.cassette}` : ""} (${written.scenario.turns.length} turns)`,
    );
  } else if (command?.startsWith("/")) {
    console.log("flowcheck: the commands are /save <name> [--force], /undo and /quit");
  } else if (command) {
    console.log(describeTurn(flowName, await recorder.say(line.trim())));
    unsaved = true;
  }
  return true;
}

const { flowName, dir } = parsed();
let recorder: ConversationRecorder;
try {
  recorder = await ConversationRecorder.open({
    flowName,
    flows: registeredFlows,
    env: { ...dotenvDefaults(), ...process.env },
    dir,
  });
} catch (error) {
  failed(error);
  process.exit(1);
}
console.log(`flowcheck: talking to ${flowName} (${recorder.mode} model); /save <name>, /undo, /quit`);
const lines = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
lines.setPrompt("you> ");
// Piped, each line is echoed after the prompt instead, so the output reads as the conversation.
const prompt = () => (process.stdin.isTTY ? lines.prompt() : undefined);
prompt();
for await (const line of lines) {
  if (!process.stdin.isTTY) console.log(`you> ${line}`);
  try {
    if (!(await handle(recorder, flowName, line))) break;
  } catch (error) {
    failed(error);
  }
  prompt();
}
lines.close();
if (unsaved && recorder.turns.length)
  console.log(`flowcheck: left with ${recorder.turns.length} turns not saved since the last /save`);
await recorder.close();
