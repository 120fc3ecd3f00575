import {
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
  type Script,
} from "../../src/engine/index.ts";

/** What each turn's tool answers, and so what each turn adds to the step's memory: 3 MiB. */
export const BULK_PER_TURN = 3 * 1024 * 1024;

class BulkStep extends Step {
  systemPrompt(): string {
    return "You are BulkStep of BulkyFlow: call bulk on every message.";
  }

  @tool({
    name: "bulk",
    description: "Answer with a large text.",
    parameters: { type: "object", additionalProperties: false },
  })
  bulk() {
    return stay("x".repeat(BULK_PER_TURN));
  }
}

/** A flow whose session grows by BULK_PER_TURN a turn, to reach a store's size limit in a few turns. */
export const BulkyFlow = defineFlow({
  name: "BulkyFlow",
  description: "Grows its session by 3 MiB a turn.",
  steps: [BulkStep],
});

const bulkyScript: Script = ({ latest }) => {
  if (latest?.role === "user") return scriptedToolCalls([{ name: "bulk", args: {} }]);
  return latest?.role === "tool" ? scriptedText(`Stored ${latest.content.length} characters.`) : undefined;
};

export const bulkyFlows: FlowEntry[] = [{ flow: BulkyFlow, scripts: { BulkyFlow: bulkyScript } }];
