/** A CSV row with its last cell changed the way `changedValue` changes a saved value. */
function changedLastCell(row: string): string {
  // A quoted last cell may hold commas: the change goes inside its closing quote.
  if (row.endsWith('"')) return `${row.slice(0, -1)}·"`;
  const start = row.lastIndexOf(",") + 1;
  const cell = row.slice(start);
  if (/^-?\d+(\.\d+)?$/.test(cell)) {
    const decimals = cell.split(".")[1]?.length ?? 0;
    return row.slice(0, start) + (Number(cell) + 1).toFixed(decimals);
  }
  return row.slice(0, start) + (cell === "" ? "mutant" : `${cell}·`);
}

/**
 * The body a render mutant answers instead of `body`, deterministic so a mutant's runs agree. For
 * `text/csv`, the last data row's last cell changed: a number by one, keeping its decimals
 * (`1370.28` → `1371.28`), other text with `·` added (inside its quotes when quoted), an empty
 * cell made `mutant`. For any other type, or a CSV with no data row, the last character that is
 * not white space becomes `·` (`*` when it is one already); an empty body becomes `mutant`.
 */
export function alteredRendering(mediaType: string, body: string): string {
  const end = body.trimEnd().length;
  const rowStart = body.lastIndexOf("\n", end - 1) + 1;
  if (mediaType === "text/csv" && rowStart > 0)
    return body.slice(0, rowStart) + changedLastCell(body.slice(rowStart, end)) + body.slice(end);
  if (end === 0) return `mutant${body}`;
  return body.slice(0, end - 1) + (body[end - 1] === "·" ? "*" : "·") + body.slice(end);
}
