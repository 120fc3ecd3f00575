import type { SessionChange } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

const inline = (value: unknown) => escapeHtml(JSON.stringify(value) ?? "undefined");

function stateRows(state: NonNullable<SessionChange["state"]>): string[] {
  return Object.entries(state).flatMap(([step, change]) => [
    ...Object.entries(change.added ?? {}).map(
      ([key, value]) =>
        `<li class="added">+ ${escapeHtml(step)}.${escapeHtml(key)} = <code>${inline(value)}</code></li>`,
    ),
    ...Object.entries(change.changed ?? {}).map(
      ([key, { from, to }]) =>
        `<li class="changed">~ ${escapeHtml(step)}.${escapeHtml(key)}: <code>${inline(from)}</code> → <code>${inline(to)}</code></li>`,
    ),
    ...(change.removed ?? []).map((key) => `<li class="removed">− ${escapeHtml(step)}.${escapeHtml(key)}</li>`),
    ...(change.value
      ? [
          `<li class="changed">~ ${escapeHtml(step)}: <code>${inline(change.value.from)}</code> → <code>${inline(change.value.to)}</code></li>`,
        ]
      : []),
  ]);
}

/** What a turn changed in the stored session, as a compact diff; nothing when it changed nothing. */
export function changeHtml(change: SessionChange | undefined): string {
  if (!change) return "";
  const rows = [
    ...(change.step
      ? [
          `<li class="changed">step ${escapeHtml(change.step.from ?? "(new)")} → <b>${escapeHtml(change.step.to)}</b></li>`,
        ]
      : []),
    ...(change.runStatus
      ? [
          `<li class="changed">run ${escapeHtml(change.runStatus.from ?? "(new)")} → <b>${escapeHtml(change.runStatus.to)}</b></li>`,
        ]
      : []),
    ...(change.state ? stateRows(change.state) : []),
    ...(change.execution ?? []).map(
      (entry) =>
        `<li class="exec">▸ ${escapeHtml(entry.step)} ${escapeHtml(entry.kind)} ${escapeHtml(entry.name)}: ${escapeHtml(entry.outcome)}${entry.to !== undefined ? ` → ${escapeHtml(entry.to)}` : ""}</li>`,
    ),
    ...(change.children ?? []).map(
      (child) =>
        `<li class="added">+ child ${escapeHtml(child.flow)} from ${escapeHtml(child.parentStep)}: ${escapeHtml(child.currentStep)} · ${escapeHtml(child.runStatus)}</li>`,
    ),
  ];
  return rows.length ? `<div class="change"><b>session changed</b><ul>${rows.join("")}</ul></div>` : "";
}
