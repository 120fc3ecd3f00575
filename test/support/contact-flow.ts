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

/**
 * One turn of a small deterministic flow: it asks a name, then an email, then is done; input it
 * refuses (a name with digits, an address without @) leaves the step as it was.
 */
export function contactTurn(progress: ContactProgress, message: string): { progress: ContactProgress; reply: string } {
  const said = message.trim();
  if (progress.done) return { progress, reply: "We are done already." };
  if (progress.step === "NameStep") {
    if (!NAME.test(said)) return { progress, reply: "Please tell me your name." };
    return {
      progress: { step: "EmailStep", done: false, state: { NameStep: { name: said } } },
      reply: `Thanks, ${said}. What is your email?`,
    };
  }
  if (!EMAIL.test(said)) return { progress, reply: "That is not an email address; what is your email?" };
  return {
    progress: { step: "EmailStep", done: true, state: { ...progress.state, EmailStep: { email: said } } },
    reply: `Thanks, I have ${said}. We are done.`,
  };
}
