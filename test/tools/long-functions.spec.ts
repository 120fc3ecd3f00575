import assert from "node:assert/strict";
import { test } from "node:test";
import { longFunctionsIn } from "./long-functions.ts";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join("\n");

test("a declaration, a method and an arrow function over the limit are listed with their line and length; a class is not a function", () => {
  const text = [
    `export function long(a: number) {`,
    body(3),
    `}`,
    `class Store {`,
    `  async save(doc: { id: string }): Promise<void> {`,
    body(4),
    `  }`,
    `}`,
    `const arrow = async (x: string) => {`,
    body(2),
    `};`,
    `function short() {`,
    `  return 1;`,
    `}`,
  ].join("\n");
  assert.deepEqual(longFunctionsIn("a.ts", text, 3), [
    { file: "a.ts", line: 1, name: "long", lines: 5 },
    { file: "a.ts", line: 7, name: "save", lines: 6 },
    { file: "a.ts", line: 14, name: "arrow", lines: 4 },
  ]);
});

test("braces in strings, templates, regular expressions and comments do not end or lengthen a function", () => {
  const text = [
    `function tricky(s: string) {`,
    `  const a = "}"; const b = '{';`,
    "  const c = `${s} } ${ { x: 1 }.x }`;",
    `  const d = /[}{]+/.test(s); // } closing?`,
    `  /* { */`,
    `}`,
    `function after() {`,
    `  return 2;`,
    `}`,
  ].join("\n");
  assert.deepEqual(
    longFunctionsIn("b.ts", text, 0).map((found) => [found.name, found.lines]),
    [
      ["tricky", 6],
      ["after", 3],
    ],
  );
});

test("control statements are not taken for functions", () => {
  const text = [`function f(x: number) {`, `  if (x) {`, body(4), `  }`, `  for (;;) {`, `  }`, `}`].join("\n");
  assert.deepEqual(
    longFunctionsIn("c.ts", text, 2).map((found) => found.name),
    ["f"],
  );
});
