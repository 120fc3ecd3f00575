import moment, { type Moment } from "moment";
import { FlowcheckError } from "../errors.ts";

export interface Clock {
  now(): Moment;
  /** The pinned instant as given, when the clock is pinned. */
  readonly pinnedTo: string | undefined;
}

/**
 * A flow's clock. With a pin (an ISO 8601 instant, e.g. `2027-07-15T00:00:00.000Z`) `now()` always
 * returns that instant, so relative dates and prices stay stable; without one it returns the real time.
 * `variable` names where the pin came from, for the error message.
 */
export function createClock(pin: string | undefined, variable: string): Clock {
  if (pin === undefined || pin === "") {
    return { now: () => moment.utc(), pinnedTo: undefined };
  }
  const instant = moment.utc(pin, moment.ISO_8601, true);
  if (!instant.isValid()) {
    throw new FlowcheckError(
      "config_invalid",
      `${variable}="${pin}" is not an ISO 8601 instant; use a value such as 2027-07-15T00:00:00.000Z, or unset it to use the real time.`,
    );
  }
  return { now: () => instant.clone(), pinnedTo: pin };
}
