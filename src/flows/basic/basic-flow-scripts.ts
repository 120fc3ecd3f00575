import { scriptedText, scriptedToolCalls, type MemoryEntry, type Script, type Scripts } from "../../engine/index.ts";

const CITY_PAIR = /\b([A-Za-z]{2,3})\s*(?:,|and|&)\s*([A-Za-z]{2,3})\b/;
const ONE_LINE_ADDRESS = /^(.+?),\s*(.+?),\s*([A-Za-z][A-Za-z .]*?)\s+(\S+)$/;
/** "I'm Ada, check LA and NYC" → "Ada"; a message that is only a name is the name. */
const NAME_LEAD = /^(?:i'?m|i am|my name is|this is)\s+([^,.;!]+)/i;

/** The user's message of this turn: on a step just entered, the one before the hand-off. */
function turnMessage(messages: readonly MemoryEntry[]): string {
  return messages.findLast((entry) => entry.role === "user")?.content ?? "";
}

/** get_weather for both cities of "LA, NYC" or "check LA and NYC", or undefined without a pair. */
function weatherCalls(text: string) {
  const pair = CITY_PAIR.exec(text);
  if (!pair) return undefined;
  return scriptedToolCalls([
    { name: "get_weather", args: { cityName: pair[1] } },
    { name: "get_weather", args: { cityName: pair[2] } },
  ]);
}

/** BasicFlow's deterministic model: branches on the step's prompt and the latest message. */
const basicFlow: Script = (request) => {
  const { system, latest } = request;
  // The engine refused the tool's arguments (e.g. a 300-character name): ask again, in any step.
  const refused =
    latest?.role === "tool" ? /^Invalid arguments for \w+: (.+?)\. Call it again/.exec(latest.content) : null;
  if (refused) return scriptedText(`Sorry, I couldn't use that (${refused[1]}). Could you say it again, shorter?`);
  // A tool refused text it cannot save (a control character, a broken one): say why, in any step.
  const unsavable =
    latest?.role === "tool" ? /^(.+?) contains (.+?), which cannot be saved\./.exec(latest.content) : null;
  if (unsavable)
    return scriptedText(
      `Sorry, ${unsavable[1]!.toLowerCase()} you sent contains ${unsavable[2]}, which I can't save. Could you type it again?`,
    );
  return (
    (system.includes("collect the user's real full name") ? nameStepReply(request) : undefined) ??
    (system.includes("exactly two city aliases") ? weatherStepReply(request) : undefined) ??
    (system.includes("ask for their US postal address") ? addressStepReply(request) : undefined)
  );
};

/** NameStep: the name in the user's message to save_name; a placeholder refused by the tool, asked again. */
const nameStepReply: Script = ({ latest }) => {
  if (latest?.role === "user") {
    const name = NAME_LEAD.exec(latest.content.trim())?.[1] ?? latest.content;
    return scriptedToolCalls([{ name: "save_name", args: { name: name.trim() } }]);
  }
  if (latest?.role === "tool") {
    const placeholder = /^"(.+?)" is a placeholder/.exec(latest.content);
    if (placeholder)
      return scriptedText(`Sorry, "${placeholder[1]}" looks like a placeholder. What is your real name?`);
  }
  return undefined;
};

/** WeatherStep: two city aliases to the weather tool, from the hand-off's message or the user's. */
const weatherStepReply: Script = ({ messages, latest }) => {
  // Handed the turn by NameStep: the user may have named the cities in the same message.
  if (latest?.role === "handoff") {
    const name = /^Saved the name (.+)\.$/.exec(latest.content)?.[1];
    return (
      weatherCalls(turnMessage(messages)) ??
      scriptedText(`Nice to meet you, ${name}. Which two cities should I check? Give two aliases, like LA, NYC.`)
    );
  }
  if (latest?.role === "user")
    return weatherCalls(latest.content) ?? scriptedText("Please give exactly two city aliases, like LA, NYC.");
  if (latest?.role === "tool")
    return scriptedText(
      latest.content.replace(/ Ask the user.*$| The aliases are.*$/, "") +
        " Please give two known city aliases, like LA, NYC.",
    );
  return undefined;
};

/** AddressStep: the address to check_address, then what the tool said of it. */
const addressStepReply: Script = ({ latest }) => {
  if (latest?.role === "handoff") {
    const weather = /Both cities are saved: (.+)\.$/.exec(latest.content)?.[1];
    return scriptedText(`Today: ${weather}. What is your US postal address, with the ZIP code?`);
  }
  if (latest?.role === "user") return scriptedToolCalls([{ name: "check_address", args: { address: latest.content } }]);
  if (latest?.role === "tool" && latest.content.startsWith("Saved the address")) {
    const saved = /^Saved the address (.+?)\. /.exec(latest.content)?.[1];
    return scriptedText(`Thank you! Your address ${saved} is saved. That's everything.`);
  }
  if (latest?.role === "tool") {
    const reason = /validated: (.+?) Ask the user/.exec(latest.content)?.[1];
    return scriptedText(`I couldn't use that address: ${reason} Please send a corrected address.`);
  }
  return undefined;
};

/** The child flow's model: splits "street, city, state zip" and hands the parts to the tool. */
const addressCheck: Script = ({ system, latest }) => {
  if (!system.includes("Split the US postal address")) return undefined;
  if (latest?.role === "user") {
    const parts = ONE_LINE_ADDRESS.exec(latest.content.trim());
    if (!parts) return scriptedText("The address needs a street, a city, a state and a ZIP code, separated by commas.");
    return scriptedToolCalls([
      { name: "normalize_address", args: { street: parts[1], city: parts[2], state: parts[3], zip: parts[4] } },
    ]);
  }
  if (latest?.role === "tool") return scriptedText(latest.content);
  return undefined;
};

export const basicFlowScripts: Scripts = Object.freeze({ BasicFlow: basicFlow, AddressCheck: addressCheck });
