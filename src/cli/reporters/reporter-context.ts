/** What the built-in reporters are given by the run, besides its events. */
export interface ReporterContext {
  /** The run's artifacts folder: run-results.json, report.html, flow-coverage.json, transcripts. */
  artifactsDir: string;
  /** Print every flow's checklist table, not only those with a point to add (`--checklist`). */
  everyTable: boolean;
  /** Where GitHub's runner wants the job summary, and whether to print annotations. */
  github: { stepSummary?: string | undefined; annotations: boolean };
  /** The values the page must not show: the secrets of the run's environment (`secretsOf`). */
  secrets: readonly string[];
  /** The run's limits (requests held, tokens), as the summary ends with them. */
  limitsLines(): string[];
}
