import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv } from "../../../src/testing/answer/parse-csv.ts";

test("a CSV with a header parses into rows by column name", () => {
  assert.deepEqual(parseCsv("item,qty\nwidget,3\ngadget,1\n"), {
    columns: ["item", "qty"],
    rows: [
      { item: "widget", qty: "3" },
      { item: "gadget", qty: "1" },
    ],
  });
});

test("quoted fields keep commas, doubled quotes and line breaks, and CRLF ends a line", () => {
  assert.deepEqual(parseCsv('description,note\r\n"Bolts, 10mm","say ""hi""\nthen"\r\n').rows, [
    { description: "Bolts, 10mm", note: 'say "hi"\nthen' },
  ]);
});

test("an empty field and a last line without a newline are kept", () => {
  assert.deepEqual(parseCsv("a,b\n,2").rows, [{ a: "", b: "2" }]);
});

test("a row of the wrong width is refused naming its line", () => {
  assert.throws(() => parseCsv("a,b\n1,2\n3\n"), /line 3 has 1 fields, the header has 2/);
});

test("an unclosed quote and a missing header are refused", () => {
  assert.throws(() => parseCsv('a\n"open\n'), /never closed/);
  assert.throws(() => parseCsv(""), /no header line/);
});
