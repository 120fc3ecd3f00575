import { escapeHtml } from "./escape-html.ts";

// Past this a text is folded behind its first lines: a 2000-turn page stays short to scroll, and
// nothing is cut, since the whole text is one click away.
const FOLD_CHARS = 600;
const FOLD_LINES = 12;

/** `text` escaped in a `<pre>`, folded behind its beginning when it is long. */
export function foldedText(text: string, className = "text"): string {
  const lines = text.split("\n");
  if (text.length <= FOLD_CHARS && lines.length <= FOLD_LINES)
    return `<pre class="${className}">${escapeHtml(text)}</pre>`;
  const head = lines.slice(0, 4).join("\n").slice(0, 240);
  return (
    `<details class="fold"><summary><pre class="${className}">${escapeHtml(head)}…</pre>` +
    `<span class="more">show all ${text.length} characters, ${lines.length} lines</span></summary><pre class="${className}">${escapeHtml(text)}</pre></details>`
  );
}
