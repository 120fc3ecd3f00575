import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { ScenarioEvent } from "../run/scenario-event.ts";
import { ConversationEvents } from "./conversation-events.ts";
import type { RunEvent } from "./run-event.ts";
import { TranscriptDraft, type TranscriptStep } from "./transcript-draft.ts";

/** Where `draft`'s transcript is (or would be) in `dir`, relative to the working directory. */
function transcriptPath(dir: string, draft: TranscriptDraft): string | undefined {
  const name = draft.fileName;
  if (!name || draft.transcript?.outcome !== "failed") return undefined;
  const path = join(resolve(dir), name);
  return relative(process.cwd(), path) || path;
}

/** Does what `step` asks of `draft`'s file in `dir`: writes the transcript, or removes a stale one. */
function applyTranscriptStep(dir: string, draft: TranscriptDraft, step: TranscriptStep): void {
  if (step === "write" && draft.transcript && draft.fileName) {
    const path = join(resolve(dir), draft.fileName);
    // A scenario in a folder of scenarios/ (`team/ada`) has its transcript in the same folder here.
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(draft.transcript, null, 2)}\n`);
  }
  if (step === "remove") for (const name of draft.staleNames) rmSync(join(resolve(dir), name), { force: true });
}

/**
 * Writes one conversation's transcript to `<dir>/<scenario>-<kind>-failure.json` when it fails,
 * and removes a stale one when it passes: from its run events (`take`), or from a scenario run's
 * own events (`listener`).
 */
export class TranscriptWriter {
  readonly #dir: string;
  readonly #draft: TranscriptDraft;
  readonly #secrets: readonly string[];
  readonly #writes: boolean;
  #written: string | undefined;
  #events: ConversationEvents | undefined;

  /**
   * `run` tells repeated runs of one scenario apart: `<scenario>-run2-contract-failure.json`.
   * `secrets` (a target's header values, see `secretValuesOf`) are written as `[redacted]`
   * wherever they appear in a scenario run's events, since a server may echo what it was sent.
   * `writes: false` drafts the transcript without touching the file: a suite in a flowcheck test
   * run, whose transcripts reporter writes it, still names it in its failure.
   */
  constructor(dir = "test/.tmp", run?: string, secrets: readonly string[] = [], { writes = true } = {}) {
    this.#dir = dir;
    this.#draft = new TranscriptDraft(run);
    this.#secrets = secrets;
    this.#writes = writes;
  }

  /** Where the artifact is (or, with `writes: false`, is written by the run), relative to the working directory. */
  get path(): string | undefined {
    return this.#written;
  }

  readonly take = (event: RunEvent): void => {
    const step = this.#draft.add(event);
    if (this.#writes) applyTranscriptStep(this.#dir, this.#draft, step);
    if (step === "write") this.#written = transcriptPath(this.#dir, this.#draft);
  };

  readonly listener = (event: ScenarioEvent): void => {
    if (event.type === "scenario:start")
      this.#events = new ConversationEvents(event.scenario, undefined, { secrets: this.#secrets, sink: this.take });
    this.#events?.listener(event);
  };
}
