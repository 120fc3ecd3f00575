import { parseCsv } from "../../answer/parse-csv.ts";
import type { TurnResult } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";
import { foldedText } from "./folded-text.ts";

// A table this long is folded like a long text: the page of a big export stays readable.
const TABLE_ROWS = 20;

function csvTable(text: string): string | undefined {
  try {
    const { columns, rows } = parseCsv(text);
    const head = `<tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join("")}</tr>`;
    const body = rows
      .map((row) => `<tr>${columns.map((column) => `<td>${escapeHtml(row[column] ?? "")}</td>`).join("")}</tr>`)
      .join("");
    const table = `<table class="csv">${head}${body}</table>`;
    return rows.length > TABLE_ROWS
      ? `<details class="fold"><summary>CSV, ${rows.length} rows</summary>${table}</details>`
      : table;
  } catch {
    return undefined;
  }
}

/** The assistant's answer as a bubble: an event stream's answer joined (with its event count), CSV as a table. */
export function answerHtml(turn: TurnResult): string {
  if (!turn.answer) return turn.response ? `<div class="bubble assistant empty">(no answer text)</div>` : "";
  const type = turn.answer.contentType ?? "";
  const events =
    type.includes("text/event-stream") && Array.isArray(turn.response?.body)
      ? ` · ${turn.response.body.length} events`
      : "";
  const body = (type.includes("text/csv") && csvTable(turn.answer.text)) || foldedText(turn.answer.text);
  const label =
    type && !type.startsWith("application/json")
      ? `<span class="type">${escapeHtml(type.split(";")[0]!)}${events}</span>`
      : "";
  return `<div class="bubble assistant">${label}${body}</div>`;
}
