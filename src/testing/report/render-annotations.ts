import type { ConversationResult, RunResults } from "./run-results.ts";

/** GitHub shows about this many annotations of a kind per step; the rest are counted in one line. */
export const ANNOTATIONS_SHOWN = 10;

interface Annotation {
  kind: "error" | "warning";
  file: string;
  line: number;
  title: string;
  message: string;
}

/** A workflow command's message as the runner reads it back: `%`, CR and LF escaped. */
export function escapeMessage(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value: a message's escapes, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeMessage(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** `scenarios/a.json:28` → its file and line; a location without a line points at the file's first. */
function placeOf(location: string | undefined, file: string): { file: string; line: number } {
  const match = location ? /^(.*):(\d+)$/.exec(location) : null;
  return match ? { file: match[1]!, line: Number(match[2]) } : { file: location ?? file, line: 1 };
}

function conversationAnnotations(conversation: ConversationResult): Annotation[] {
  // A file that did not load may not say its flow: then its path names it.
  const scenario = conversation.flowName ? `${conversation.flowName}: ${conversation.name}` : conversation.file;
  const at = (location: string | undefined) => placeOf(location, conversation.file);
  if (!conversation.ran) {
    if (conversation.outcome === "passed") return [];
    const kind = conversation.outcome === "failed" ? "error" : "warning";
    const verb = kind === "error" ? "did not run" : "skipped";
    return [{ kind, ...at(undefined), title: `${scenario} ${verb}`, message: conversation.reason ?? verb }];
  }
  const annotations: Annotation[] = [];
  for (const turn of conversation.turns) {
    const title = `${scenario} · turn ${turn.number} '${turn.label}'`;
    if (turn.outcome === "failed")
      annotations.push({ kind: "error", ...at(turn.location), title, message: turn.failure ?? "failed" });
    if (turn.judge?.outcome === "failed")
      annotations.push({
        kind: "error",
        ...at(turn.location),
        title: `${title} · judge`,
        message: turn.judge.message ?? turn.judge.reason ?? "the judge failed it",
      });
  }
  const final = conversation.final;
  if (final?.outcome === "failed")
    annotations.push({
      kind: "error",
      ...at(final.location),
      title: `${scenario} · final state`,
      message: final.failure ?? "failed",
    });
  return annotations;
}

function annotationsOf(results: RunResults): Annotation[] {
  return [
    ...results.specsNotLoaded.map(
      (spec): Annotation => ({
        kind: "error",
        file: spec.file,
        line: 1,
        title: `${spec.file} did not load`,
        message: spec.message,
      }),
    ),
    ...results.conversations.flatMap(conversationAnnotations),
    ...(results.simulated?.scenarios ?? [])
      .filter((scenario) => scenario.flaky)
      .map(
        (scenario): Annotation => ({
          kind: "warning",
          file: scenario.file,
          line: 1,
          title: `${scenario.flowName ?? "?"}: ${scenario.name} is flaky`,
          message: `succeeded in ${scenario.successes} of ${scenario.tries} tries`,
        }),
      ),
  ];
}

function command({ kind, file, line, title, message }: Annotation): string {
  return `::${kind} file=${escapeProperty(file)},line=${line},title=${escapeProperty(title)}::${escapeMessage(message)}`;
}

/**
 * A run's failures as GitHub workflow commands, which the runner turns into annotations on the
 * scenario's line: an `::error` per failing turn, judge verdict, final state and file that did not
 * load or run, a `::warning` per skipped conversation and flaky scenario. The same failure in
 * several repeats is told once. Past `ANNOTATIONS_SHOWN` of a kind, which GitHub would not show,
 * one `::notice` counts the rest and says where `summary` (the job summary or the run's page) has them.
 */
export function renderAnnotations(results: RunResults, summary: string): string[] {
  const lines: string[] = [];
  for (const kind of ["error", "warning"] as const) {
    const commands = [
      ...new Set(
        annotationsOf(results)
          .filter((annotation) => annotation.kind === kind)
          .map(command),
      ),
    ];
    lines.push(...commands.slice(0, ANNOTATIONS_SHOWN));
    const more = commands.length - ANNOTATIONS_SHOWN;
    if (more > 0)
      lines.push(
        `::notice title=flowcheck::${more} more ${kind === "error" ? "failure" : "warning"}${more === 1 ? "" : "s"} not annotated: see ${escapeMessage(summary)}`,
      );
  }
  return lines;
}
