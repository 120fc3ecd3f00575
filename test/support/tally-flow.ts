import {
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
  type Script,
  type StepContext,
} from "../../src/engine/index.ts";

interface TallyState {
  count?: number;
}

let held: Promise<void> | undefined;
let arrived = 0;
let arrivals: { count: number; done: () => void }[] = [];

/**
 * Holds the tallies from now on until `release()`: turns that are still running. `reached(n)`
 * settles once n turns are waiting there.
 */
export function holdTallies(): { reached: (count?: number) => Promise<void>; release: () => void } {
  let release!: () => void;
  held = new Promise((done) => (release = done));
  arrived = 0;
  arrivals = [];
  return {
    reached: (count = 1) =>
      arrived >= count ? Promise.resolve() : new Promise((done) => arrivals.push({ count, done })),
    release: () => {
      held = undefined;
      release();
    },
  };
}

function arrive(): void {
  arrived += 1;
  for (const waiting of arrivals.filter((candidate) => candidate.count <= arrived)) waiting.done();
}

class TallyStep extends Step<TallyState> {
  systemPrompt(): string {
    return "You are TallyStep of TallyFlow: count every message with tally.";
  }

  @tool({
    name: "tally",
    description: "Count one more message.",
    parameters: { type: "object", additionalProperties: false },
  })
  async tally(_args: object, context: StepContext<TallyState>) {
    if (held) {
      arrive();
      await held;
    }
    context.state.count = (context.state.count ?? 0) + 1;
    return stay(`Counted ${context.state.count}.`);
  }
}

/** One step that counts the messages it was sent, and renders the count as CSV (`text/csv`). */
export const TallyFlow = defineFlow({
  name: "TallyFlow",
  description: "Counts messages.",
  steps: [TallyStep],
  renderers: { "text/csv": ({ steps }) => `count\n${String(steps["TallyStep"]?.["count"] ?? 0)}\n` },
});

const tallyScript: Script = ({ latest }) => {
  if (latest?.role === "user") return scriptedToolCalls([{ name: "tally", args: {} }]);
  if (latest?.role === "tool") return scriptedText(latest.content);
  return undefined;
};

export const tallyFlows: FlowEntry[] = [{ flow: TallyFlow, scripts: { TallyFlow: tallyScript } }];
