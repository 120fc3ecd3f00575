import type { UserReply, UserTurnRequest } from "../engine/index.ts";

/** What a demo flow's scripted user reads before it answers: the assistant's last answer, its own messages, its facts. */
export interface PersonaView {
  /** The assistant's latest answer, or "" before the first. */
  answer: string;
  /** Whether the user has already sent exactly this message. */
  said(message: string): boolean;
  /** One of the user's facts as text, or undefined when the scenario gave no such fact. */
  fact(name: string): string | undefined;
}

export function personaView({ user, conversation }: UserTurnRequest): PersonaView {
  return {
    answer: conversation.findLast((message) => message.role === "assistant")?.content ?? "",
    said: (text) => conversation.some((message) => message.role === "user" && message.content === text),
    fact: (name) => {
      const value = user.facts[name];
      return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
    },
  };
}

/** The user's next message; none when a fact it needs is missing, which fails the conversation loudly. */
export function say(message: string | undefined): UserReply | undefined {
  return message === undefined ? undefined : { message, done: false };
}

/** The user stops: the flow said it is finished. */
export function finished(reason: string): UserReply {
  return { message: "", done: true, reason };
}
