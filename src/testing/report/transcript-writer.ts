import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { preview } from "../../engine/scripted-model.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import type { ScenarioEvent } from "../run/scenario-event.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { TRANSCRIPT_KINDS, type Transcript } from "./transcript.ts";
import { withoutSecrets } from "./without-secrets.ts";

/**
 * Listens to a scenario's events and, when it fails, writes `<dir>/<scenario>-<kind>-failure.json`
 * (kind `contract`, or `semantic` when only the judge failed). A passing run removes a stale one.
 */
export class TranscriptWriter {
  readonly #dir: string;
  readonly #suffix: string;
  readonly #secrets: readonly string[];
  #transcript: Transcript | undefined;
  #loaded: LoadedScenario | undefined;
  #path: string | undefined;

  /**
   * `run` tells repeated runs of one scenario apart: `<scenario>-run2-contract-failure.json`.
   * `secrets` (a target's header values, see `secretValuesOf`) are written as `[redacted]`
   * wherever they appear, since a server may echo what it was sent.
   */
  constructor(dir = "test/.tmp", run?: string, secrets: readonly string[] = []) {
    this.#dir = resolve(dir);
    this.#suffix = run ? `-${run}` : "";
    this.#secrets = secrets;
  }

  /** Where the artifact was written, relative to the working directory. */
  get path(): string | undefined {
    return this.#path;
  }

  readonly listener = (event: ScenarioEvent): void => {
    switch (event.type) {
      case "scenario:start": {
        this.#loaded = event.scenario;
        const { user } = event.scenario.scenario;
        this.#transcript = {
          transcript: 1,
          kind: "contract",
          scenario: {
            file: event.scenario.file,
            name: event.scenario.name,
            flowName: event.scenario.scenario.flowName,
            ...(event.scenario.scenario.description ? { description: event.scenario.scenario.description } : {}),
            ...(user ? { user: { persona: user.persona, goal: user.goal, style: user.style ?? "cooperative" } } : {}),
          },
          target: {
            baseUrl: event.target.baseUrl,
            store: event.target.store,
            ...(event.target.models ? { models: event.target.models } : {}),
          },
          pins: { ...event.target.pins },
          startedAt: new Date().toISOString(),
          outcome: "passed",
          turns: [],
        };
        break;
      }
      case "turn:end":
        this.#transcript?.turns.push(event.report);
        if (event.report.outcome === "failed")
          this.#fail(event.report.failure, event.report.checks, event.report.number - 1);
        else {
          const verdict = event.report.checks.find((c) => c.contract === "judge" && c.outcome === "failed");
          const response = JSON.stringify(preview(event.report.answer ?? "", 200));
          if (verdict)
            this.#fail(
              `turn ${event.report.number} '${event.report.label}': ${verdict.message}; response: ${response}`,
              event.report.checks,
              event.report.number - 1,
            );
        }
        break;
      case "final":
        if (this.#transcript) this.#transcript.final = event.report;
        if (event.report.outcome === "failed") this.#fail(event.report.failure, event.report.checks, undefined);
        break;
      case "scenario:end":
        if (event.outcome === "failed") this.#write();
        else this.#removeStale();
        break;
    }
  };

  #fail(failure: string | undefined, checks: TurnReport["checks"], turnIndex: number | undefined): void {
    const transcript = this.#transcript;
    if (!transcript) return;
    if (transcript.outcome === "passed") {
      transcript.outcome = "failed";
      const location = this.#loaded && scenarioLocation(this.#loaded, turnIndex);
      if (location) transcript.location = location;
      if (failure) transcript.failure = location ? `${location}: ${failure}` : failure;
      const contractFailed = checks.some((c) => c.outcome === "failed" && c.contract !== "judge");
      transcript.kind = contractFailed ? "contract" : "semantic";
    }
    // Written at the first failure too, so the artifact exists even if the run is then cut short.
    this.#write();
  }

  #write(): void {
    const transcript = this.#transcript;
    if (!transcript) return;
    const path = join(this.#dir, `${transcript.scenario.name}${this.#suffix}-${transcript.kind}-failure.json`);
    // A scenario in a folder of scenarios/ (`team/ada`) has its transcript in the same folder here.
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(withoutSecrets(transcript, this.#secrets), null, 2)}\n`);
    this.#path = relative(process.cwd(), path) || path;
  }

  #removeStale(): void {
    const name = this.#transcript?.scenario.name;
    if (!name) return;
    for (const kind of TRANSCRIPT_KINDS)
      rmSync(join(this.#dir, `${name}${this.#suffix}-${kind}-failure.json`), { force: true });
  }
}
