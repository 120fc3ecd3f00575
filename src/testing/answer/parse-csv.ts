export interface Csv {
  columns: string[];
  /** Each row by column name. */
  rows: Record<string, string>[];
}

/**
 * Parses RFC 4180 CSV whose first line names the columns: quoted fields may hold commas, quotes
 * (doubled) and line breaks. Throws, naming the line, for a row of the wrong width or an open quote.
 */
export function parseCsv(text: string): Csv {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === "\n") line++;
        field += char;
      }
    } else if (char === '"' && field === "") {
      quoted = true;
    } else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      line++;
    } else {
      field += char;
    }
  }
  if (quoted) throw new Error(`a quoted field opened before line ${line} is never closed`);
  if (field !== "" || record.length) {
    record.push(field);
    records.push(record);
  }
  const [columns, ...rest] = records;
  if (!columns || columns.every((column) => column === ""))
    throw new Error("there is no header line naming the columns");
  const rows = rest.map((values, index) => {
    if (values.length !== columns.length) {
      throw new Error(`line ${index + 2} has ${values.length} fields, the header has ${columns.length}`);
    }
    return Object.fromEntries(columns.map((column, j) => [column, values[j]!]));
  });
  return { columns, rows };
}
