import type { ToolDefinition } from "../../engine/chat-model.ts";
import type { SeamCall } from "./seam-call.ts";
import type { SeamApi, SeamMessage } from "./seam-request.ts";
import type { Unsupported } from "./unsupported.ts";
import type { WireObject } from "./wire-object.ts";

/** What both APIs' bodies carry alike and the seam cannot serve: a model that is not named, a stream neither on nor off. */
export function refuseModelAndStream(body: WireObject, unsupported: Unsupported): void {
  if (typeof body["model"] !== "string") unsupported.note("model", body["model"], "model is the model's name");
  const stream = body["stream"];
  if (stream !== undefined && stream !== null && typeof stream !== "boolean")
    unsupported.note("stream", stream, "stream is true or false");
}

/** What a reader read of `body`, in the API's own way. */
export interface ReadCall {
  readonly system: readonly string[];
  readonly messages: SeamMessage[];
  readonly tools: ToolDefinition[];
  readonly includeUsage: boolean;
  /** The body as a call carries it: the app's, its references resolved. */
  readonly body: unknown;
}

/** The seam's call of `body` as an API's reader read it, with what it could not serve. */
export function seamCallOf(api: SeamApi, body: WireObject, read: ReadCall, unsupported: Unsupported): SeamCall {
  const { messages } = read;
  const call: SeamCall = {
    api,
    model: typeof body["model"] === "string" ? body["model"] : "",
    stream: body["stream"] === true,
    includeUsage: read.includeUsage,
    request: { system: read.system.join("\n\n"), messages, latest: messages.at(-1), tools: read.tools },
    body: read.body,
  };
  return unsupported.message === undefined ? call : { ...call, unsupported: unsupported.message };
}
