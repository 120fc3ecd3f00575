export interface JudgePromptInput {
  /** Earlier turns, oldest first. */
  conversation: { user: string; assistant: string }[];
  input: string;
  answer: string;
  expectation: string;
  instructions?: string;
}

// Kept word for word from run to run: the prompt is part of the judge cache key and of cassettes.
const RULES = `You grade one answer of a conversational assistant against an expectation a test author wrote.
Judge only what the expectation asks about. Ignore wording, tone and formatting unless the expectation names them.
Use the conversation so far only to understand the answer; grade the latest answer alone.
Reply with one JSON object and nothing else:
{"pass": true|false, "score": 0..1, "reason": "…", "missing": ["…"], "contradictions": ["…"]}
- score: how fully the answer meets the expectation, from 0 (not at all) to 1 (fully).
- pass: true only when the answer meets the expectation as a whole.
- missing: each thing the expectation asks for that the answer does not do; [] when none.
- contradictions: each thing the answer says or does against the expectation or the conversation; [] when none.
- reason: one or two sentences the test author can act on.`;

/** The judge's system prompt and user message for one judged turn. */
export function judgePrompt(input: JudgePromptInput): { system: string; user: string } {
  const system = input.instructions?.trim() ? `${RULES}\nRules for this flow, which override the ones above:\n${input.instructions.trim()}` : RULES;
  const earlier = input.conversation.length
    ? input.conversation.map((turn) => `User: ${turn.user}\nAssistant: ${turn.assistant}`).join("\n")
    : "(none: this is the first turn)";
  const user = [
    "Conversation so far:",
    earlier,
    "",
    "Latest user message:",
    input.input,
    "",
    "Answer to grade:",
    input.answer,
    "",
    "Expectation:",
    input.expectation,
  ].join("\n");
  return { system, user };
}
