/** flowcheck's own reporters, by the name `--reporter` takes. */
export const REPORTER_NAMES = ["summary", "results", "transcripts", "html", "junit", "github", "checklist"] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The reporters that take a destination: the file each writes. */
export const WITH_DESTINATION: readonly ReporterName[] = ["junit", "html"];

/** One reporter asked for: a built-in by name (with where it writes), or a module by its path. */
export type RunReporterChoice = { name: ReporterName; destination?: string } | { module: string };
