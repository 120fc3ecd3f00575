import { AssertionError } from "node:assert";
import { inspect } from "node:util";
import type { TestEvent } from "node:test/reporters";

/** An error as it crosses to another process: what node:test's reporters print of it, kept. */
interface WireError {
  readonly wireError: true;
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  /** Its own properties (node:test's `code` and `failureType`, an assertion's `actual` and `expected`, `cause`). */
  readonly own: Record<string, unknown>;
}

function isWireError(value: unknown): value is WireError {
  return typeof value === "object" && value !== null && (value as { wireError?: unknown }).wireError === true;
}

/** `value` as structured clone carries it: an error as a `WireError`, what cannot be cloned as it prints. */
function wireValue(value: unknown): unknown {
  if (value instanceof Error) {
    const own: Record<string, unknown> = {};
    for (const key of Object.keys(value)) own[key] = wireValue((value as unknown as Record<string, unknown>)[key]);
    if ("cause" in value) own["cause"] = wireValue(value.cause);
    return { wireError: true, name: value.name, message: value.message, stack: value.stack, own } satisfies WireError;
  }
  try {
    return structuredClone(value);
  } catch {
    return inspect(value);
  }
}

function errorValue(value: unknown): unknown {
  if (!isWireError(value)) return value;
  const error = new Error(value.message);
  // An assertion prints as one (its diff, its values shortened), the others as errors do.
  if (value.name === "AssertionError") Object.setPrototypeOf(error, AssertionError.prototype);
  // The stack leads what inspect prints, and names the error's class as the other process had it.
  Object.defineProperty(error, "stack", { value: value.stack, writable: true, configurable: true });
  Object.defineProperty(error, "name", { value: value.name, writable: true, configurable: true });
  for (const [key, own] of Object.entries(value.own)) {
    const restored = errorValue(own);
    if (key === "cause") Object.defineProperty(error, "cause", { value: restored, writable: true, configurable: true });
    else (error as unknown as Record<string, unknown>)[key] = restored;
  }
  return error;
}

/**
 * A node:test event as it goes to the process that reports the run: a failure's error (node:test's
 * wrapper and the assertion in its `cause`) with the properties its reporters print, which
 * structured clone would drop.
 */
export function toWire(event: TestEvent): TestEvent {
  const details = (event.data as { details?: { error?: unknown } } | undefined)?.details;
  if (details?.error === undefined) return event;
  return { ...event, data: { ...event.data, details: { ...details, error: wireValue(details.error) } } } as TestEvent;
}

/** The event `toWire` sent, its error an `Error` again. */
export function fromWire(event: TestEvent): TestEvent {
  const details = (event.data as { details?: { error?: unknown } } | undefined)?.details;
  if (!isWireError(details?.error)) return event;
  return { ...event, data: { ...event.data, details: { ...details, error: errorValue(details.error) } } } as TestEvent;
}
