import assert from "node:assert/strict";
import { test } from "node:test";
import { alteredRendering } from "../../../src/testing/strength/altered-rendering.ts";

test("a CSV's last data row has its last cell changed as a saved value would be: a number by one, keeping its decimals", () => {
  assert.equal(
    alteredRendering("text/csv", "item,total\r\na,1.50\r\nb,1370.28\r\n"),
    "item,total\r\na,1.50\r\nb,1371.28\r\n",
  );
  assert.equal(alteredRendering("text/csv", "line,count\n1,7\n"), "line,count\n1,8\n");
});

test("a CSV's last text cell gets a · added, inside its quotes when quoted, and an empty one becomes mutant", () => {
  assert.equal(alteredRendering("text/csv", "line,text\n1,bolts\n"), "line,text\n1,bolts·\n");
  assert.equal(alteredRendering("text/csv", 'line,text\n1,"a, b"\n'), 'line,text\n1,"a, b·"\n');
  assert.equal(alteredRendering("text/csv", "line,text\n1,\n"), "line,text\n1,mutant\n");
});

test("any other type, or a CSV with only its header, has its last character that is not white space changed", () => {
  assert.equal(alteredRendering("text/csv", "line,text\n"), "line,tex·\n");
  assert.equal(alteredRendering("application/xml", "<a>1</a>\n"), "<a>1</a·\n");
  assert.equal(alteredRendering("text/plain", "x·"), "x*");
  assert.equal(alteredRendering("text/plain", ""), "mutant");
});
