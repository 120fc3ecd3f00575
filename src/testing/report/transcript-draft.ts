import { preview } from "../../engine/scripted-model.ts";
import type { Check } from "../checks/check.ts";
import { toolCallsByTurn } from "./conversation-result.ts";
import type { RunEvent } from "./run-event.ts";
import { TRANSCRIPT_KINDS, type Transcript } from "./transcript.ts";

/** What a conversation's transcript file needs after an event: written (again), or a stale one removed. */
export type TranscriptStep = "write" | "remove" | undefined;

/**
 * One conversation's failure artifact as its events build it, before any file: a conversation that
 * fails has `<scenario>-<kind>-failure.json` (kind `contract`, or `semantic` when only the judge
 * failed) written at its first failure and again as it goes on; one that ends well has a stale one
 * removed.
 */
export class TranscriptDraft {
  readonly #suffix: string;
  #transcript: Transcript | undefined;
  #locations: { turns: (string | undefined)[]; final?: string | undefined } = { turns: [] };

  /** `run` tells repeated runs of one scenario apart: `<scenario>-run2-contract-failure.json`. */
  constructor(run?: string) {
    this.#suffix = run ? `-${run}` : "";
  }

  get transcript(): Transcript | undefined {
    return this.#transcript;
  }

  /** The file the transcript is written as, in its artifacts folder (its scenario's folder under it). */
  get fileName(): string | undefined {
    const transcript = this.#transcript;
    return transcript && `${transcript.scenario.name}${this.#suffix}-${transcript.kind}-failure.json`;
  }

  /** Every name a transcript of this conversation may have, of either kind. */
  get staleNames(): string[] {
    const name = this.#transcript?.scenario.name;
    return name ? TRANSCRIPT_KINDS.map((kind) => `${name}${this.#suffix}-${kind}-failure.json`) : [];
  }

  add(event: RunEvent): TranscriptStep {
    switch (event.type) {
      case "conversation:begin":
        this.#begin(event.data);
        return undefined;
      case "turn": {
        const { conversation: _conversation, ...report } = event.data;
        this.#transcript?.turns.push(report);
        const index = report.number - 1;
        if (report.outcome === "failed") return this.#fail(report.failure, report.checks, index);
        const verdict = report.checks.find((c) => c.contract === "judge" && c.outcome === "failed");
        if (!verdict) return undefined;
        const response = JSON.stringify(preview(report.answer ?? "", 200));
        const failure = `turn ${report.number} '${report.label}': ${verdict.message}; response: ${response}`;
        return this.#fail(failure, report.checks, index);
      }
      case "final": {
        const { conversation: _conversation, ...report } = event.data;
        if (this.#transcript) {
          this.#transcript.final = report;
          // Our engine's turns report no calls of their own: the stored log at the end has them.
          const logged = toolCallsByTurn(this.#transcript.turns, report.stored);
          for (const turn of this.#transcript.turns) {
            const calls = logged[turn.number];
            if (calls) turn.toolCalls = calls;
          }
        }
        return report.outcome === "failed" ? this.#fail(report.failure, report.checks, undefined) : undefined;
      }
      case "conversation:end":
        if (!this.#transcript) return undefined;
        if (event.data.outcome === "failed") return "write";
        // A conversation the run cut short says nothing of how it would have ended.
        return event.data.millis === undefined ? undefined : "remove";
      default:
        return undefined;
    }
  }

  #begin(begin: Extract<RunEvent, { type: "conversation:begin" }>["data"]): void {
    const { user, target } = begin;
    this.#locations = { turns: begin.planned.map((turn) => turn.location), final: begin.finalLocation };
    this.#transcript = {
      transcript: 1,
      kind: "contract",
      scenario: {
        file: begin.file,
        name: begin.name,
        flowName: begin.flowName ?? "",
        ...(begin.description ? { description: begin.description } : {}),
        ...(user ? { user } : {}),
      },
      target: { baseUrl: target.baseUrl, store: target.store, ...(target.models ? { models: target.models } : {}) },
      pins: { ...target.pins },
      startedAt: begin.startedAt,
      outcome: "passed",
      turns: [],
    };
  }

  #fail(failure: string | undefined, checks: readonly Check[], turnIndex: number | undefined): TranscriptStep {
    const transcript = this.#transcript;
    if (!transcript) return undefined;
    if (transcript.outcome === "passed") {
      transcript.outcome = "failed";
      const location = turnIndex === undefined ? this.#locations.final : this.#locations.turns[turnIndex];
      if (location) transcript.location = location;
      if (failure) transcript.failure = location ? `${location}: ${failure}` : failure;
      const contractFailed = checks.some((c) => c.outcome === "failed" && c.contract !== "judge");
      transcript.kind = contractFailed ? "contract" : "semantic";
    }
    // Written at the first failure too, so the artifact exists even if the run is then cut short.
    return "write";
  }
}
