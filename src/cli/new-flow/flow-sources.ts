import type { FlowNames } from "./flow-name.ts";

export function flowSource({ flow }: FlowNames): string {
  return `import { defineFlow, type FlowTypes } from "../../engine/index.ts";
import { ChoiceStep } from "./choice-step.ts";
import { NoteStep } from "./note-step.ts";

// In order: a new session starts on the first.
const steps = { ChoiceStep, NoteStep };

/** The flow's step names and states, for its steps' \`Step<State, ${flow}Types>\`. */
export interface ${flow}Types extends FlowTypes<typeof steps> {}

export const ${flow} = defineFlow<${flow}Types>({
  name: "${flow}",
  description: "Asks for a choice of small, medium or large, then for a note.",
  steps,
});
`;
}

export function scriptsSource({ flow, camel }: FlowNames): string {
  return `import { scriptedText, scriptedToolCalls, type Script, type Scripts } from "../../engine/index.ts";
import { CHOICES } from "./choice-step.ts";

/** ${flow}'s deterministic model: what a good model would answer, step by step. */
const ${camel}: Script = ({ latest, context }) => {
  if (context.step === "ChoiceStep") {
    if (latest?.role === "user") return scriptedToolCalls([{ name: "save_choice", args: { choice: latest.content } }]);
    // The tool refused the choice with stay(…): ask again.
    if (latest?.role === "tool") return scriptedText(\`Sorry, please choose one of \${CHOICES.join(", ")}.\`);
  }
  if (context.step === "NoteStep") {
    // Just entered, in the same turn as the choice: the hand-off carries advance(…)'s message.
    if (latest?.role === "handoff")
      return scriptedText(\`Noted: \${/Saved the choice (\\w+)/.exec(latest.content)?.[1]}. Any note to go with it?\`);
    if (latest?.role === "user") return scriptedToolCalls([{ name: "save_note", args: { note: latest.content } }]);
    if (latest?.role === "tool" && latest.content.includes("too short"))
      return scriptedText("That note is too short: please write 3 characters or more.");
    const unsavable = latest?.role === "tool" ? /contains (.+?), which cannot be saved/.exec(latest.content) : null;
    if (unsavable)
      return scriptedText(\`Sorry, that note contains \${unsavable[1]}, which I can't save. Could you type it again?\`);
    // complete(…)'s message: the closing answer.
    if (latest?.role === "tool") return scriptedText("Thank you, that's everything. Goodbye!");
  }
  // No answer: the turn fails with script_unmatched, quoting the prompt.
  return undefined;
};

export const ${camel}Scripts: Scripts = {
  ${flow}: ${camel},
};
`;
}

export function entrySource({ flow, kebab, camel }: FlowNames): string {
  return `import type { FlowEntry } from "../../engine/index.ts";
import { ${flow} } from "./${kebab}.ts";
import { ${camel}Scripts } from "./${kebab}-scripts.ts";

export const ${camel}Entry: FlowEntry = {
  flow: ${flow},
  scripts: ${camel}Scripts,
};
`;
}
