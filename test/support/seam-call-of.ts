import type { SeamCall } from "../../src/testing/seam/seam-call.ts";
import type { SeamApi, SeamMessage, SeamRequest } from "../../src/testing/seam/seam-request.ts";

const TOOLS = [
  {
    name: "get_weather",
    description: "The weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

/**
 * A streamed model call of target `desk` as the wire would read it, asking `latest` after
 * `earlier`, and its body as the app sent it (the body's shape is the API's; the seam forwards it).
 */
export function seamCallOf(
  api: SeamApi,
  latest: string,
  earlier: readonly SeamMessage[] = [],
): { request: SeamRequest; call: SeamCall } {
  const messages: SeamMessage[] = [...earlier, { role: "user", content: latest }];
  const read = { system: "You forecast the weather.", messages, latest: messages.at(-1), tools: TOOLS };
  const body =
    api === "chat"
      ? {
          model: "gpt-4o-mini",
          messages: [{ role: "system", content: read.system }, ...messages],
          tools: TOOLS.map((tool) => ({ type: "function", function: tool })),
          stream: true,
          stream_options: { include_usage: true },
        }
      : {
          model: "gpt-4o-mini",
          instructions: read.system,
          input: messages.map((message) => ({ role: message.role, content: message.content })),
          tools: TOOLS.map((tool) => ({ type: "function", ...tool })),
          stream: true,
        };
  return {
    request: { ...read, context: { target: "desk", flow: "Desk", model: "gpt-4o-mini", api } },
    call: { api, model: "gpt-4o-mini", stream: true, includeUsage: api === "chat", request: read, body },
  };
}
