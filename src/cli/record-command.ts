import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ConversationRecorder } from "../testing/capture/conversation-recorder.ts";
import { describeTurn } from "../testing/capture/describe-turn.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { answerHelp } from "./answer-help.ts";
import { commandEnvironment } from "./command-config.ts";
import { printFailure } from "./print-failure.ts";

const USAGE = `Usage: flowcheck record <FlowName> [--dir <folder>]

Holds a conversation with the flow in this process (FLOW_MODEL scripted by default, or live; record
is live with its cassette kept). Each answer shows the step, the run status and what changed in the
state. Type a message, or:
  /save <name> [--force]  write <folder>/<name>.scenario.json (folder default: scenarios), and the
                          cassette with the live model
  /undo                   drop the last turn
  /quit                   leave
Works with piped input too: printf 'John Wick\\n/save my-check\\n/quit\\n' | flowcheck record BasicFlow`;

function parsed(args: readonly string[]): { flowName: string; dir: string } | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { dir: { type: "string" } },
      allowPositionals: true,
    });
    if (positionals.length === 1) return { flowName: positionals[0]!, dir: values.dir ?? "scenarios" };
  } catch (error) {
    console.error((error as Error).message);
  }
  console.error(USAGE);
  return undefined;
}

/** A conversation being held: its flow, its recorder, and whether it has turns, or lost one, since it was last saved. */
interface Conversation {
  flowName: string;
  recorder: ConversationRecorder;
  unsaved: boolean;
}

/** Runs one line: a command or a message. Returns false on /quit. */
async function handle(conversation: Conversation, line: string): Promise<boolean> {
  const { recorder, flowName } = conversation;
  const [command, ...words] = line.trim().split(/\s+/);
  if (command === "/quit") return false;
  if (command === "/undo") {
    const dropped = await recorder.undo();
    conversation.unsaved ||= dropped !== undefined;
    console.log(
      dropped
        ? `flowcheck: dropped "${dropped.input}"; ${recorder.turns.length} turns kept`
        : "flowcheck: there is no turn to drop",
    );
  } else if (command === "/save") {
    const name = words.find((word) => word !== "--force");
    if (!name) return (console.log("flowcheck: /save needs a name, e.g. /save tea-check"), true);
    const written = await recorder.save(name, words.includes("--force"));
    conversation.unsaved = false;
    console.log(
      `flowcheck: wrote ${written.file}${written.cassette ? ` and ${written.cassette}` : ""} (${written.scenario.turns.length} turns)`,
    );
  } else if (command?.startsWith("/")) {
    console.log("flowcheck: the commands are /save <name> [--force], /undo and /quit");
  } else if (command) {
    console.log(describeTurn(flowName, await recorder.say(line.trim())));
    conversation.unsaved = true;
  }
  return true;
}

/** Reads lines from stdin until /quit or its end, each run by `handle`; how many failed. */
async function converse(conversation: Conversation): Promise<number> {
  const lines = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  lines.setPrompt("you> ");
  // Piped, each line is echoed after the prompt instead, so the output reads as the conversation.
  const prompt = () => (process.stdin.isTTY ? lines.prompt() : undefined);
  let failures = 0;
  prompt();
  for await (const line of lines) {
    if (!process.stdin.isTTY) console.log(`you> ${line}`);
    try {
      if (!(await handle(conversation, line))) break;
    } catch (error) {
      printFailure(error);
      failures += 1;
    }
    prompt();
  }
  lines.close();
  return failures;
}

/** `flowcheck record <FlowName> [--dir]`: a conversation held from stdin; 1 when it cannot start or, piped, a line failed. */
export async function recordCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const request = parsed(args);
  if (!request) return 2;
  const { flowName, dir } = request;
  let recorder: ConversationRecorder;
  try {
    const flows = await loadProjectFlows();
    recorder = await ConversationRecorder.open({ flowName, flows, env: commandEnvironment({ dotenv: true }), dir });
  } catch (error) {
    printFailure(error);
    return 1;
  }
  console.log(`flowcheck: talking to ${flowName} (${recorder.mode} model); /save <name>, /undo, /quit`);
  const conversation: Conversation = { flowName, recorder, unsaved: false };
  const failures = await converse(conversation);
  if (conversation.unsaved && recorder.turns.length)
    console.log(`flowcheck: left with ${recorder.turns.length} turns not saved since the last /save`);
  await recorder.close();
  // Piped, the exit status is all a script sees of a failed line.
  return failures && !process.stdin.isTTY ? 1 : 0;
}
