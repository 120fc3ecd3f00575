/** One field as RFC 4180 wants it: quoted, quotes doubled, when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Records of fields as RFC 4180 text: fields joined by commas, every record ended by CRLF. */
export function csvDocument(records: readonly (readonly string[])[]): string {
  return records.map((fields) => `${fields.map(csvField).join(",")}\r\n`).join("");
}
