import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonLines } from "../../../src/testing/scenario/json-lines.ts";

test("every value of a JSON text has the line it starts on, an object member the line of its key", () => {
  const text = [
    "{",
    '  "flowName": "BasicFlow",',
    '  "turns": [',
    "    {",
    '      "label": "one",',
    '      "input": "a, {b} \\"c\\""',
    "    },",
    '    { "label": "two" }',
    "  ],",
    '  "a/b~c": [1,',
    "    2]",
    "}",
  ].join("\n");
  const lines = jsonLines(text);
  assert.deepEqual(
    [
      "",
      "/flowName",
      "/turns",
      "/turns/0",
      "/turns/0/label",
      "/turns/0/input",
      "/turns/1",
      "/turns/1/label",
      "/a~1b~0c",
      "/a~1b~0c/0",
      "/a~1b~0c/1",
    ].map((pointer) => [pointer, lines.get(pointer)]),
    [
      ["", 1],
      ["/flowName", 2],
      ["/turns", 3],
      ["/turns/0", 4],
      ["/turns/0/label", 5],
      ["/turns/0/input", 6],
      ["/turns/1", 8],
      ["/turns/1/label", 8],
      ["/a~1b~0c", 10],
      ["/a~1b~0c/0", 10],
      ["/a~1b~0c/1", 11],
    ],
  );
  assert.equal(lines.size, 11);
});

test("scalars, empty containers and a value alone are placed too", () => {
  const lines = jsonLines('{"a":{},"b":[],"c":null,"d":-1.5e3,"e":true}');
  assert.deepEqual([...lines.keys()], ["", "/a", "/b", "/c", "/d", "/e"]);
  assert.deepEqual(jsonLines("\n\n  42"), new Map([["", 3]]));
});
