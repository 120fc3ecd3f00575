import { FlowcheckError } from "../../../errors.ts";
import { parseObject } from "../../answer/read-answer.ts";
import { parseEventStream } from "../../answer/parse-event-stream.ts";
import { show } from "../../scenario/show.ts";
import { QUOTED_BODY } from "../request-target.ts";

/** The terminator both OpenAI's chunks and the AI SDK's UI message stream end with. */
const DONE = "[DONE]";

/** An answer that is not the stream it should be, said in `message`. */
export function invalidStream(message: string): FlowcheckError {
  return new FlowcheckError("target_invalid_answer", message);
}

/**
 * The JSON objects an event stream's `data:` lines carry, up to its `data: [DONE]`. A stream cut
 * before it, an `error` event, or data that is not a JSON object is an error naming `stream`.
 */
export function jsonDataEvents(body: string, stream: string): Record<string, unknown>[] {
  const events = parseEventStream(body).filter((event) => event.data !== "" || event.event === "error");
  const done = events.findIndex((event) => event.data === DONE);
  if (done === -1) {
    throw invalidStream(
      `the ${stream} stream ends without its terminator "data: ${DONE}" after ${events.length} events ` +
        `(${show(body, QUOTED_BODY)}): the server stopped mid-answer, or answer.stream names another protocol than it streams`,
    );
  }
  return events.slice(0, done).map((event, index) => {
    if (event.event === "error") {
      throw invalidStream(
        `the ${stream} stream has an error event: ${show(event.data, QUOTED_BODY)}; see the server's log`,
      );
    }
    const data = parseObject(event.data);
    if (!data) {
      throw invalidStream(
        `event ${index + 1} of the ${stream} stream carries ${show(event.data, QUOTED_BODY)}, not a JSON object; ` +
          "answer.stream may name another protocol than the server streams",
      );
    }
    return data;
  });
}
