import type { ErrorCode } from "../../errors.ts";

/**
 * A scenario's failure as node:test reports it: the message alone, starting with the scenario's
 * `file:line`. It carries no stack into the tester and no assert `actual`/`expected`, which would
 * say nothing about the conversation and push the message out of sight.
 */
export class ScenarioFailure extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, location?: string) {
    super(location ? `${location}: ${message}` : message);
    this.name = "ScenarioFailure";
    this.code = code;
    this.stack = `${this.name}: ${this.message}`;
  }
}
