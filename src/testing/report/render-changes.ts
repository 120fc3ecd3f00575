import { CHANGE_GROUPS, groupTitle, othersText, playsFacts, type FailedPlay, type RunChanges } from "./run-changes.ts";

const oneLine = (text: string) => text.replace(/\s+/g, " ").slice(0, 500);
const failureText = ({ at, reason }: FailedPlay) => `${at ? `(${at}): ` : ""}${oneLine(reason)}`;

/**
 * What changed since the older run as Markdown, for the job summary: a heading naming that run,
 * then each group that has a scenario in `CHANGE_GROUPS` order, a scenario a line with where and why
 * it fails now, then the scenarios in none.
 */
export function renderChanges(changes: RunChanges): string[] {
  const { startedAt, commit } = changes.since;
  const lines = [`### Changed since ${startedAt}${commit ? ` (${commit})` : ""}`, ""];
  for (const group of CHANGE_GROUPS) {
    const members = changes.changes.filter((change) => change.group === group);
    if (members.length === 0) continue;
    lines.push(`**${groupTitle(group)}** (${members.length})`);
    for (const change of members) {
      const facts = playsFacts(change);
      const [only, ...more] = change.failures;
      const inline = only && more.length === 0 ? `${facts ? " — " : " "}${failureText(only)}` : "";
      lines.push(`- \`${change.scenario}\`${facts ? `: ${facts}` : ""}${inline}`);
      if (more.length) lines.push(...change.failures.map((failure) => `  - ${failureText(failure)}`));
    }
    lines.push("");
  }
  const others = othersText(changes);
  if (others) lines.push(others, "");
  return lines;
}
