import {
  advance,
  complete,
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  tool,
  type FlowEntry,
  type Script,
} from "../../src/engine/index.ts";

class FarewellStep extends Step {
  systemPrompt(): string {
    return "You are FarewellStep of RelayFlow: end the run with finish.";
  }

  @tool({ name: "finish", description: "End the run.", parameters: { type: "object", additionalProperties: false } })
  finish() {
    return complete("The run is over.");
  }
}

class GreetStep extends Step {
  systemPrompt(): string {
    return "You are GreetStep of RelayFlow: move on with go.";
  }

  @tool({
    name: "go",
    description: "Move to FarewellStep.",
    parameters: { type: "object", additionalProperties: false },
  })
  go() {
    return advance(FarewellStep, "Moved to FarewellStep.");
  }
}

/** Two steps: any message on GreetStep moves to FarewellStep, any message there completes the run. */
export const RelayFlow = defineFlow({
  name: "RelayFlow",
  description: "Greets, then says goodbye.",
  steps: [GreetStep, FarewellStep],
});

const relayScript: Script = ({ latest, context }) => {
  if (latest?.role === "handoff") return scriptedText(`${context.step}: say anything.`);
  if (latest?.role === "tool") return scriptedText(latest.content);
  if (latest?.role === "user")
    return scriptedToolCalls([{ name: context.step === "GreetStep" ? "go" : "finish", args: {} }]);
  return undefined;
};

export const relayFlows: FlowEntry[] = [{ flow: RelayFlow, scripts: { RelayFlow: relayScript } }];
