import {
  complete,
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
  type Renderer,
  type Script,
  type StepContext,
} from "../../src/engine/index.ts";

interface LedgerState {
  lines?: string[];
}

/** The line the CSV renderer cannot write: it stands in for a bug in a flow's renderer. */
export const UNRENDERABLE = "unrenderable";

class LedgerStep extends Step<LedgerState> {
  systemPrompt(): string {
    return "You are LedgerStep of LedgerFlow: add each message with add_line; on close, call close_ledger.";
  }

  @tool({
    name: "add_line",
    description: "Add a line to the ledger.",
    parameters: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  })
  addLine(args: { text: string }, context: StepContext<LedgerState>) {
    context.state.lines = [...(context.state.lines ?? []), args.text];
    return stay(`Added line ${context.state.lines.length}.`);
  }

  @tool({
    name: "close_ledger",
    description: "Close the ledger.",
    parameters: { type: "object", additionalProperties: false },
  })
  closeLedger() {
    return complete("The ledger is closed.");
  }
}

/** `line,text,status` and a row per line; it throws on the UNRENDERABLE line, as a renderer with a bug would. */
export const renderLedgerCsv: Renderer = ({ steps, runStatus }) => {
  const lines = (steps["LedgerStep"] as LedgerState | undefined)?.lines ?? [];
  if (lines.includes(UNRENDERABLE)) throw new Error(`cannot write the line "${UNRENDERABLE}"`);
  return ["line,text,status", ...lines.map((text, index) => `${index + 1},${text},${runStatus}`)].join("\n") + "\n";
};

/** One step that keeps each message as a line until "close" completes the run; `Accept: text/csv` gets the lines. */
export const LedgerFlow = defineFlow({
  name: "LedgerFlow",
  description: "Keeps lines until closed; renders them as text/csv.",
  steps: [LedgerStep],
  renderers: { "text/csv": renderLedgerCsv },
});

/** Every message is a line, "close" closes the ledger; a tool's result is the answer. */
export const ledgerScript: Script = ({ latest }) => {
  if (latest?.role === "tool") return scriptedText(latest.content);
  if (latest?.role !== "user") return undefined;
  return latest.content === "close"
    ? scriptedToolCalls([{ name: "close_ledger", args: {} }])
    : scriptedToolCalls([{ name: "add_line", args: { text: latest.content } }]);
};

export const ledgerFlows: FlowEntry[] = [{ flow: LedgerFlow, scripts: { LedgerFlow: ledgerScript } }];
