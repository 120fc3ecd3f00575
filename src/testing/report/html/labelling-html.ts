import { exchangesOf, turnDraftOf } from "../label-drafts.ts";
import type { ConversationResult } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

/**
 * Under a turn the judge gave a verdict: "the judge is right", "the judge is wrong" and a note, the
 * label's draft kept on the element (its hash computed here: the page needs no Web Crypto), and how
 * many answered turns came before it in the conversation's `data-exchanges`. Hidden until the page's
 * script runs, which is what makes the buttons do anything; "" for a turn with no verdict.
 */
export function labellingHtml(conversation: ConversationResult, index: number): string {
  const draft = turnDraftOf(conversation, index);
  if (!draft) return "";
  const before = exchangesOf(conversation.turns.slice(0, index)).length;
  return (
    `<div class="labelling" hidden data-draft="${escapeHtml(JSON.stringify(draft))}" data-before="${before}">` +
    `<span class="facts">is the judge right?</span>` +
    `<button type="button" data-human="right" aria-pressed="false">the judge is right</button>` +
    `<button type="button" data-human="wrong" aria-pressed="false">the judge is wrong</button>` +
    `<input name="note" type="text" placeholder="note (why)" aria-label="note on the judge's verdict"></div>`
  );
}

function labellable(conversation: ConversationResult): boolean {
  return conversation.turns.some((_, index) => turnDraftOf(conversation, index) !== undefined);
}

/**
 * The conversation's answered turns, as the judge read them before each turn, on its element: once
 * per conversation rather than once per judged turn, which would grow with the square of its length.
 * "" when no turn of it can be labelled.
 */
export function exchangesAttribute(conversation: ConversationResult): string {
  return labellable(conversation)
    ? ` data-exchanges="${escapeHtml(JSON.stringify(exchangesOf(conversation.turns)))}"`
    : "";
}

/** The page's bar of labels, when any turn can be labelled: their count and the download. */
export function labelsBarHtml(conversations: readonly ConversationResult[]): string {
  if (!conversations.some(labellable)) return "";
  return (
    `<div id="labels" class="labels" hidden><b>Is the judge right?</b> ` +
    `<span class="facts">Label its verdicts below, then merge the download with ` +
    `<code>flowcheck judge label --import judge-labels.json</code>.</span> ` +
    `<span id="labelled">0 labelled</span><button type="button" id="download-labels" disabled>download judge-labels.json</button></div>`
  );
}
