import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import type { BasicFlowTypes } from "./basic-flow.ts";

export interface NameState {
  name?: string;
}

const PLACEHOLDERS = new Set([
  "john doe",
  "jane doe",
  "test",
  "test user",
  "asdf",
  "name",
  "your name",
  "first last",
  "foo bar",
]);

export class NameStep extends Step<NameState, BasicFlowTypes> {
  systemPrompt(): string {
    return (
      "You collect the user's real full name. When the user gives a name, call save_name with it. " +
      "If the tool says the name is a placeholder, say so, quoting the name, and ask for their real name."
    );
  }

  @tool({
    name: "save_name",
    description: "Save the user's real full name.",
    parameters: {
      type: "object",
      properties: { name: { type: "string", minLength: 1, maxLength: 100 } },
      required: ["name"],
      additionalProperties: false,
    },
  })
  saveName(args: { name: string }, context: StepContext<NameState, BasicFlowTypes>) {
    const name = args.name.trim().replace(/\s+/g, " ");
    const unsavable = characterProblem(name, "The name");
    if (unsavable) return stay(unsavable);
    if (PLACEHOLDERS.has(name.toLowerCase())) {
      return stay(
        `"${name}" is a placeholder, not a real name. Tell the user "${name}" is not accepted and ask for their real name.`,
      );
    }
    context.state.name = name;
    return advance("WeatherStep", `Saved the name ${name}.`);
  }
}
