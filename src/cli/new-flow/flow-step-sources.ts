import type { FlowNames } from "./flow-name.ts";

/** The first step: a choice from a fixed list, refused with `stay` when it is not on the list. */
export function choiceStepSource({ flow, kebab }: FlowNames): string {
  return `import { advance, stay, Step, tool, type StepContext } from "../../engine/index.ts";
import type { ${flow}Types } from "./${kebab}.ts";

export const CHOICES = ["small", "medium", "large"] as const;

export interface ChoiceState {
  choice?: (typeof CHOICES)[number];
}

export class ChoiceStep extends Step<ChoiceState, ${flow}Types> {
  systemPrompt(): string {
    return \`Ask the user to choose one of: \${CHOICES.join(", ")}. When they answer, call save_choice with their answer.\`;
  }

  @tool({
    name: "save_choice",
    description: "Save the user's choice.",
    parameters: {
      type: "object",
      properties: { choice: { type: "string", minLength: 1 } },
      required: ["choice"],
      additionalProperties: false,
    },
  })
  saveChoice(args: { choice: string }, context: StepContext<ChoiceState, ${flow}Types>) {
    // The rule lives in code, so it holds whatever the model says.
    const choice = CHOICES.find((each) => each === args.choice.trim().toLowerCase());
    if (!choice) return stay(\`"\${args.choice}" is not one of \${CHOICES.join(", ")}. Ask again.\`);
    context.state.choice = choice;
    return advance("NoteStep", \`Saved the choice \${choice}.\`);
  }
}
`;
}

/**
 * The last step: a note that completes the run, refused with `stay` when it is too short to mean
 * anything or holds a character that cannot be saved (`characterProblem`, the rule for free text).
 */
export function noteStepSource({ flow, kebab }: FlowNames): string {
  return `import { characterProblem, complete, stay, Step, tool, type StepContext } from "../../engine/index.ts";
import type { ${flow}Types } from "./${kebab}.ts";

export interface NoteState {
  note?: string;
}

export class NoteStep extends Step<NoteState, ${flow}Types> {
  systemPrompt(context: StepContext<NoteState, ${flow}Types>): string {
    return \`The user chose \${context.stateOf("ChoiceStep").choice}. Ask for a note to go with it, then call save_note with it.\`;
  }

  @tool({
    name: "save_note",
    description: "Save the user's note.",
    parameters: {
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
      additionalProperties: false,
    },
  })
  saveNote(args: { note: string }, context: StepContext<NoteState, ${flow}Types>) {
    const note = args.note.trim();
    // Free text is saved only without control characters or broken ones; a note may keep its line breaks.
    const unsavable = characterProblem(note, "The note", { multiline: true });
    if (unsavable) return stay(unsavable);
    if (note.length < 3) return stay(\`"\${note}" is too short for a note: it needs 3 characters or more. Ask again.\`);
    context.state.note = note;
    return complete("Saved. Thank the user and say goodbye.");
  }
}
`;
}
