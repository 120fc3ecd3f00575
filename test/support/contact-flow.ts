/** The steps of the contact flow both chat fixture servers play. */
export const CONTACT_STEPS = ["NameStep", "EmailStep"] as const;

export type ContactStep = (typeof CONTACT_STEPS)[number];

/** Where a contact conversation is: its step, whether it has ended, each step's state. */
export interface ContactProgress {
  step: ContactStep;
  done: boolean;
  state: { NameStep?: { name: string }; EmailStep?: { email: string } };
}

export const CONTACT_START: ContactProgress = { step: "NameStep", done: false, state: {} };

const NAME = /^\p{L}[\p{L} .'-]{0,59}$/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A tool the contact flow calls on a turn, as the chat fixture servers that report tools report it. */
export interface ContactCall {
  name: string;
  args: Record<string, string>;
  output: Record<string, unknown>;
}

/** What a turn of the contact flow does: where it leaves the conversation, its reply, and the tools it called. */
export interface ContactTurn {
  progress: ContactProgress;
  reply: string;
  calls: ContactCall[];
}

/**
 * One turn of a small deterministic flow: it asks a name, then an email, then is done; input it
 * refuses (a name with digits, an address without @) leaves the step as it was. Each name is
 * checked (`check_name`) and an accepted one saved (`save_name`); an accepted email is saved
 * (`save_email`); a refused email calls no tool.
 */
export function contactTurn(progress: ContactProgress, message: string): ContactTurn {
  const said = message.trim();
  if (progress.done) return { progress, reply: "We are done already.", calls: [] };
  if (progress.step === "NameStep") {
    const valid = NAME.test(said);
    const check: ContactCall = { name: "check_name", args: { name: said }, output: { valid } };
    if (!valid) return { progress, reply: "Please tell me your name.", calls: [check] };
    return {
      progress: { step: "EmailStep", done: false, state: { NameStep: { name: said } } },
      reply: `Thanks, ${said}. What is your email?`,
      calls: [check, { name: "save_name", args: { name: said }, output: { saved: true, next: "EmailStep" } }],
    };
  }
  if (!EMAIL.test(said)) return { progress, reply: "That is not an email address; what is your email?", calls: [] };
  return {
    progress: { step: "EmailStep", done: true, state: { ...progress.state, EmailStep: { email: said } } },
    reply: `Thanks, I have ${said}. We are done.`,
    calls: [{ name: "save_email", args: { email: said }, output: { saved: true } }],
  };
}
