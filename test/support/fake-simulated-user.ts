import { join } from "node:path";
import type { ScriptedUser, UserStyle } from "../../src/engine/scripted-user.ts";
import type { UserMaterial } from "../../src/testing/user/user-prompt.ts";
import type { CompletionRequest, FakeOpenAI } from "./fake-openai-server.ts";

/** A request of the model that plays the simulated user: it alone opens with these rules. */
export function isUserRequest(request: CompletionRequest): boolean {
  return request.messages[0]?.content?.startsWith("You play the USER") ?? false;
}

/**
 * Has `fake` answer the simulated user's requests with what `say` returns for the material it
 * was sent (the raw text the model would send); the flow's and the judge's requests are answered
 * as before, from the scripts and with a passing verdict.
 */
export function playUser(fake: FakeOpenAI, say: (material: UserMaterial) => string): void {
  fake.answer = (request) =>
    isUserRequest(request) ? { judge: say(JSON.parse(request.messages[1]!.content!) as UserMaterial) } : undefined;
}

/** A user's reply as the model sends it. */
export const userReply = (message: string, done = false, reason?: string) =>
  JSON.stringify({ message, done, ...(reason ? { reason } : {}) });

/** The fixture scenario whose simulated user `ada` plays: BasicFlow with no opening turn. */
export const ADA_SCENARIO = join(
  import.meta.dirname,
  "..",
  "fixtures",
  "simulated-scenarios",
  "no-opening-turns.scenario.json",
);

/** The suite's test of that scenario's simulated user, as it is named. */
export const ADA_TEST = "simulated user: Ada Lovelace, a mathematician who answers what she is asked …";

/**
 * Ada Lovelace as the live model would play her to BasicFlow: her name, then the two cities, then
 * her address, each when the assistant asks for it; done once the address is saved.
 */
export function ada({ conversation }: UserMaterial): string {
  const last = conversation.findLast((entry) => entry.from === "assistant")?.text ?? "";
  if (/is saved/.test(last)) return userReply("", true, "the address is saved: goal reached");
  if (/postal address/.test(last)) return userReply("1600 SW Murray Blvd, Beaverton, OR 97006");
  if (/two cities|city aliases/.test(last)) return userReply("LA, NYC");
  return userReply("Ada Lovelace");
}

/**
 * Has `fake` answer the simulated user's requests as a scripted user would: `userOf` picks it by
 * the persona the request carries (undefined: a persona no script plays, answered with a 500).
 * The style is read back from the system message, the conversation from the material.
 */
export function playScriptedUsers(fake: FakeOpenAI, userOf: (persona: string) => ScriptedUser | undefined): void {
  fake.answer = (request) => {
    if (!isUserRequest(request)) return undefined;
    const material = JSON.parse(request.messages[1]!.content!) as UserMaterial;
    const style = /\nYour style \(([a-z-]+)\):/.exec(request.messages[0]!.content ?? "")?.[1] as UserStyle;
    const user = userOf(material.persona);
    const reply = user?.({
      user: {
        persona: material.persona,
        goal: material.goal,
        facts: material.facts,
        style,
        maxTurns: material.maxTurns,
      },
      conversation: material.conversation.map((entry) => ({
        role: entry.from === "you" ? "user" : "assistant",
        content: entry.text,
      })),
      turn: material.turn,
    });
    return reply ? { judge: JSON.stringify(reply) } : { status: 500, body: { error: { message: "no scripted user" } } };
  };
}
