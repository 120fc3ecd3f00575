import {
  advance,
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  tool,
  type FlowEntry,
  type MemoryEntry,
  type Script,
} from "../../src/engine/index.ts";

const NO_ARGUMENTS = { type: "object", additionalProperties: false } as const;

/** The message `bounce` hands AnswerStep; AnswerStep's model answers it by calling `back`. */
export const BOUNCE_NOTE = "Bounced: send the user straight back.";

class AskStep extends Step {
  systemPrompt(): string {
    return "You are AskStep of HandOffFlow.";
  }

  @tool({ name: "forward", description: "Move to AnswerStep.", parameters: NO_ARGUMENTS })
  forward() {
    return advance("AnswerStep", "Forwarded: answer the user.");
  }

  @tool({ name: "bounce", description: "Move to AnswerStep, which sends the turn back.", parameters: NO_ARGUMENTS })
  bounce() {
    return advance("AnswerStep", BOUNCE_NOTE);
  }

  @tool({ name: "note", description: "Move to AnswerStep with a note of its own.", parameters: NO_ARGUMENTS })
  note() {
    return { ...advance("AnswerStep", "Noted."), handoff: "A note for AnswerStep alone." };
  }

  @tool({ name: "again", description: "Enter AskStep again.", parameters: NO_ARGUMENTS })
  again() {
    return advance("AskStep", "Asked again.");
  }
}

class AnswerStep extends Step {
  systemPrompt(): string {
    return "You are AnswerStep of HandOffFlow.";
  }

  @tool({ name: "back", description: "Move back to AskStep.", parameters: NO_ARGUMENTS })
  back() {
    return advance("AskStep", "Sent back: ask the user again.");
  }
}

/**
 * Two steps that hand the turn to each other. Its model calls the tools a user message names
 * ("!forward", "!again | forward"), echoes a tool's result, and answers a hand-off by quoting it,
 * except BOUNCE_NOTE, which AnswerStep answers by calling `back` in the same turn.
 */
export const HandOffFlow = defineFlow({
  name: "HandOffFlow",
  description: "Steps that hand the turn to each other.",
  steps: [AskStep, AnswerStep],
});

/** What a script was sent, copied as it was: the step, its memory and the latest entry. */
export interface SeenRequest {
  step: string;
  messages: MemoryEntry[];
  latest: MemoryEntry | undefined;
}

/** HandOffFlow with its scripted model; `seen` gets every request the model is sent. */
export function handOffFlow(): { entry: FlowEntry; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const script: Script = ({ messages, latest, context }) => {
    seen.push({ step: context.step, messages: structuredClone([...messages]), latest: structuredClone(latest) });
    if (latest?.role === "user" && latest.content.startsWith("!")) {
      return scriptedToolCalls(
        latest.content
          .slice(1)
          .split(" | ")
          .map((name) => ({ name, args: {} })),
      );
    }
    if (latest?.role === "tool") return scriptedText(`${context.step} heard: ${latest.content}`);
    if (latest?.role === "handoff" && context.step === "AnswerStep" && latest.content === BOUNCE_NOTE) {
      return scriptedToolCalls([{ name: "back", args: {} }]);
    }
    if (latest?.role === "handoff")
      return scriptedText(`${context.step} was handed the turn by ${latest.from}: ${latest.content}`);
    return undefined;
  };
  return { entry: { flow: HandOffFlow, scripts: { HandOffFlow: script } }, seen };
}
