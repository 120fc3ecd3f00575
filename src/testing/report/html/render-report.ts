import type { StrengthResults } from "../../strength/strength-results.ts";
import { runChanges } from "../run-changes.ts";
import type { ConversationResult, RunResults } from "../run-results.ts";
import { changesHtml } from "./changes-html.ts";
import { conversationHtml } from "./conversation-html.ts";
import { checklistHtml } from "./checklist-html.ts";
import { coverageHtml } from "./coverage-html.ts";
import { escapeHtml } from "./escape-html.ts";
import { labelsBarHtml } from "./labelling-html.ts";
import { LABELLING_SCRIPT } from "./labelling-script.ts";
import { passKHtml } from "./pass-k-html.ts";
import { repeatsHtml } from "./repeats-html.ts";
import { strengthHtml } from "./strength-html.ts";
import { reportHeader } from "./report-header.ts";
import { REPORT_SCRIPT } from "./report-script.ts";
import { REPORT_STYLE } from "./report-style.ts";
import { withoutSecrets } from "../without-secrets.ts";

export interface ReportOptions {
  /** An older run's results: what changed since is shown first, under the header. */
  compare?: RunResults;
  /** Values never to show, whatever echoed them (see `secretsOf`). */
  secrets?: readonly string[];
  /** The last strength run's results, found beside the run's: shown after the simulated users' pass^k. */
  strength?: StrengthResults;
}

// No request may leave the page: scripts and styles inline only, images as data: URLs, nothing else.
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";
const ORDER = { failed: 0, passed: 1, skipped: 2 } as const;

function options(values: Iterable<string>, all: string): string {
  return [
    `<option value="">${all}</option>`,
    ...[...new Set(values)].sort().map((value) => `<option>${escapeHtml(value)}</option>`),
  ].join("");
}

function filtersHtml(conversations: readonly ConversationResult[]): string {
  return (
    `<form id="filters" class="filters" hidden onsubmit="return false"><select name="flow" aria-label="flow">${options(
      conversations.flatMap((each) => (each.flowName ? [each.flowName] : [])),
      "every flow",
    )}</select>` +
    `<select name="tag" aria-label="tag">${options(
      conversations.flatMap((each) => each.tags ?? []),
      "every tag",
    )}</select>` +
    `<select name="outcome" aria-label="outcome">${options(["failed", "passed", "skipped"], "every outcome")}</select>` +
    `<input name="text" type="search" placeholder="text in a conversation…" aria-label="text">` +
    `<button type="button" data-open="all">expand all</button><button type="button" data-open="none">collapse all</button><span id="shown" class="facts"></span></form>`
  );
}

function notLoadedHtml(results: RunResults): string {
  if (results.specsNotLoaded.length === 0) return "";
  const items = results.specsNotLoaded.map(
    ({ file, message }) => `<li><code>${escapeHtml(file)}</code><pre class="message">${escapeHtml(message)}</pre></li>`,
  );
  return `<section class="panel reason"><h2>Spec files that did not load</h2><ul>${items.join("")}</ul></section>`;
}

/**
 * A run's results as one self-contained HTML page: the header, what changed since `compare`, the
 * simulated users' pass^k, the scenario strength of `strength`, the conversations (failures first and
 * open, each judged turn with the buttons that label its verdict), repeats, flow coverage and the
 * new-flow checklist. Every text is escaped and every secret redacted; the page loads nothing.
 */
export function renderReport(run: RunResults, { compare, secrets = [], strength }: ReportOptions = {}): string {
  const results = withoutSecrets(run, secrets);
  const conversations = [...results.conversations].sort((a, b) => ORDER[a.outcome] - ORDER[b.outcome]);
  const title = `flowcheck run ${results.startedAt}: ${results.totals.conversations.failed} failed`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${POLICY}">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head>` +
    `<body><main>${reportHeader(results)}${compare ? changesHtml(runChanges(results, withoutSecrets(compare, secrets))) : ""}${passKHtml(results.simulated)}${strengthHtml(strength && withoutSecrets(strength, secrets))}${notLoadedHtml(results)}` +
    `${filtersHtml(conversations)}${labelsBarHtml(conversations)}` +
    `<div id="conversations">${conversations.map(conversationHtml).join("")}</div>` +
    `${repeatsHtml(results.conversations)}${coverageHtml(results.coverage)}${checklistHtml(results.checklist)}</main>` +
    `<script>${REPORT_SCRIPT}${LABELLING_SCRIPT}</script></body></html>\n`
  );
}
