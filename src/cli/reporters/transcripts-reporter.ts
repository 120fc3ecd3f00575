import type { RunEvent, RunReporter } from "../../testing/report/run-event.ts";
import { TranscriptWriter } from "../../testing/report/transcript-writer.ts";
import type { ReporterContext } from "./reporter-context.ts";

/** The conversation an event is about, if any. */
function conversationOf(event: RunEvent): string | undefined {
  switch (event.type) {
    case "conversation:begin":
    case "conversation:end":
      return event.data.id;
    case "turn":
    case "judge":
    case "final":
      return event.data.conversation;
    default:
      return undefined;
  }
}

/**
 * `transcripts`: each failed conversation's transcript, `test/.tmp/<scenario>-<kind>-failure.json`
 * (`-run<n>` for one of several runs), written at its first failure and again as it goes on; a
 * stale one removed when the conversation passes.
 */
export function transcriptsReporter(context: ReporterContext): RunReporter {
  return async (events) => {
    const writers = new Map<string, TranscriptWriter>();
    for await (const event of events) {
      const id = conversationOf(event);
      if (id === undefined) continue;
      if (event.type === "conversation:begin") {
        const { index, of } = event.data.repeat;
        writers.set(id, new TranscriptWriter(context.artifactsDir, of === 1 ? undefined : `run${index}`));
      }
      writers.get(id)?.take(event);
      if (event.type === "conversation:end") writers.delete(id);
    }
  };
}
