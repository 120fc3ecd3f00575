import { FlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import { readPointer } from "../json-pointer.ts";
import { QUOTED_BODY } from "../request-target.ts";

const FIX =
  "Fix the pointer in flowcheck.config.json: a JSON Pointer (RFC 6901) to where the body holds it, such as /data/step.";

/**
 * The value at `pointer` in an answer's `body`, else an error (`target_invalid_answer`) naming the
 * pointer and `what` it was read for, quoting the body. `what` says where: the request, its status,
 * the config key (e.g. `POST http://…/chat answered 200, but targets.shop.answer.step (the current step)`).
 */
export function pointerValue(body: unknown, pointer: string, what: string): unknown {
  const result = readPointer(body, pointer);
  if (result.found) return result.value;
  throw new FlowcheckError(
    "target_invalid_answer",
    `${what}: the pointer "${pointer}" finds nothing in the body ${show(body, QUOTED_BODY)}. ${FIX}`,
  );
}

function wrongType(body: unknown, pointer: string, what: string, value: unknown, expected: string): FlowcheckError {
  return new FlowcheckError(
    "target_invalid_answer",
    `${what}: the pointer "${pointer}" finds ${show(value)}, not ${expected}, in the body ` +
      `${show(body, QUOTED_BODY)}. ${FIX}`,
  );
}

/** The string at `pointer` (a number is taken as its digits, as ids often are), else an error as `pointerValue`'s. */
export function pointerString(body: unknown, pointer: string, what: string): string {
  const value = pointerValue(body, pointer, what);
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw wrongType(body, pointer, what, value, "a string");
}

/** The boolean at `pointer`, else an error as `pointerValue`'s. */
export function pointerBoolean(body: unknown, pointer: string, what: string): boolean {
  const value = pointerValue(body, pointer, what);
  if (typeof value === "boolean") return value;
  throw wrongType(body, pointer, what, value, "true or false");
}

/** The array at `pointer`, else an error as `pointerValue`'s. */
export function pointerArray(body: unknown, pointer: string, what: string): unknown[] {
  const value = pointerValue(body, pointer, what);
  if (Array.isArray(value)) return value;
  throw wrongType(body, pointer, what, value, "an array");
}
