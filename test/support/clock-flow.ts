import { defineFlow, scriptedText, Step, type Script, type StepContext } from "../../src/engine/index.ts";

/**
 * A one-step flow that answers with its clock, `Today is <context.now()>.`, and its setting
 * CLOCK_FLOW_NOTE from `context.env` when there is one. Its pin is CLOCK_FLOW_CURRENT_DATE.
 */
class ClockStep extends Step {
  systemPrompt(context: StepContext): string {
    const note = context.env["CLOCK_FLOW_NOTE"];
    return `Today is ${context.now().toISOString()}.${note === undefined ? "" : ` Note: ${note}.`}`;
  }
}

export const ClockFlow = defineFlow({ name: "ClockFlow", description: "Says what instant it is.", steps: [ClockStep] });
const clockScript: Script = ({ system, latest }) => (latest?.role === "user" ? scriptedText(system) : undefined);
export const clockFlows = [{ flow: ClockFlow, scripts: { ClockFlow: clockScript } }];
