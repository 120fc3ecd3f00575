import { parseCsv, type Csv } from "../answer/parse-csv.ts";

const json = (value: unknown) => JSON.stringify(value);

function parsed(text: string): Csv | undefined {
  try {
    return parseCsv(text);
  } catch {
    return undefined;
  }
}

/**
 * How a mutated CSV answer differs from the unmutated one, and the `expectCsvRows` that catches
 * it: the rows in order (the check wants them all), each named by its first column, and the row
 * that differs by the cells that differ. A mutated answer that does not parse or has other rows
 * asks for every unmutated row whole.
 */
export function csvDifference(was: string, is: string): { what: string; expectation: string } {
  const [before, after] = [parsed(was), parsed(is)];
  if (!before)
    return { what: "the CSV answer differed", expectation: `"expectCsvRows" with the unmutated answer's rows` };
  const whole = { what: "the CSV answer's rows differed", expectation: `"expectCsvRows": ${json(before.rows)}` };
  if (!after || after.rows.length !== before.rows.length) return whole;
  const index = before.rows.findIndex((row, at) =>
    before.columns.some((column) => row[column] !== after.rows[at]![column]),
  );
  if (index === -1) return whole;
  const row = before.rows[index]!;
  const changed = before.columns.filter((column) => row[column] !== after.rows[index]![column]);
  const first = before.columns[0]!;
  const rows = before.rows.map((each, at) =>
    at === index ? Object.fromEntries(changed.map((column) => [column, each[column]])) : { [first]: each[first] },
  );
  const cells = changed.map(
    (column) => `${column} ${json(after.rows[index]![column])} instead of ${json(row[column])}`,
  );
  return { what: `CSV row ${index + 1} had ${cells.join(", ")}`, expectation: `"expectCsvRows": ${json(rows)}` };
}
