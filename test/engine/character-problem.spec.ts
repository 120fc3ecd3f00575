import assert from "node:assert/strict";
import { test } from "node:test";
import { characterProblem } from "../../src/engine/index.ts";

const refusal = (character: string) =>
  `The name contains a control character (${character}), which cannot be saved. Ask the user to type it again.`;

test("a NUL is refused, naming the character and asking for the text again", () => {
  assert.equal(characterProblem("John\u0000Wick", "The name"), refusal("U+0000"));
});

test("every C0 control character is refused, U+001F and ESC included", () => {
  for (let code = 0; code <= 0x1f; code += 1) {
    const character = String.fromCharCode(code);
    assert.match(
      characterProblem(`a${character}b`, "The name") ?? "",
      /control character \(U\+00[01][0-9A-F]\)/,
      `U+${code.toString(16)}`,
    );
  }
  assert.equal(characterProblem("x\u001f", "The name"), refusal("U+001F"));
  assert.equal(characterProblem("Brick\u001b[31m", "The name"), refusal("U+001B"));
});

test("DEL (U+007F) and the C1 controls, NEL (U+0085) among them, are refused", () => {
  assert.equal(characterProblem("Wick\u007f", "The name"), refusal("U+007F"));
  assert.equal(characterProblem("John\u0085Wick", "The name"), refusal("U+0085"));
  assert.equal(characterProblem("\u0080", "The name"), refusal("U+0080"));
  assert.equal(characterProblem("\u009f", "The name"), refusal("U+009F"));
});

test("tab and line breaks are refused in a one-line value and kept in a multi-line one", () => {
  for (const [text, code] of [
    ["John\tWick", "U+0009"],
    ["John\nWick", "U+000A"],
    ["John\r\nWick", "U+000D"],
  ]) {
    assert.equal(characterProblem(text!, "The name"), refusal(code!), code);
    assert.equal(characterProblem(text!, "The note", { multiline: true }), undefined, code);
  }
  assert.match(
    characterProblem("line one\nline\u0000two", "The note", { multiline: true }) ?? "",
    /^The note contains a control character \(U\+0000\)/,
  );
  assert.match(
    characterProblem("note\u0085", "The note", { multiline: true }) ?? "",
    /\(U\+0085\)/,
    "NEL is C1, not a line break a note keeps",
  );
});

test("a lone high or low surrogate is refused as a broken character", () => {
  const broken = (code: string) =>
    `The name contains a broken character (${code}, half of a character such as an emoji), which cannot be saved. Ask the user to type it again.`;
  assert.equal(characterProblem("John\uD800Wick", "The name"), broken("U+D800"));
  assert.equal(characterProblem("John\uDBFF", "The name"), broken("U+DBFF"));
  assert.equal(characterProblem("\uDC00John", "The name"), broken("U+DC00"));
  assert.equal(characterProblem("John\uDFFF", "The name"), broken("U+DFFF"));
  assert.equal(
    characterProblem("😀\uDE00", "The name"),
    broken("U+DE00"),
    "a low half after a whole pair is still alone",
  );
  assert.equal(
    characterProblem("\uDE00\uD83D", "The name"),
    broken("U+DE00"),
    "halves in the wrong order are two lone halves",
  );
});

test("a proper surrogate pair, like an emoji, is accepted", () => {
  assert.equal(characterProblem("Ada 😀", "The name"), undefined);
  assert.equal(characterProblem("\uD83D\uDE00", "The name"), undefined);
  assert.equal(
    characterProblem("👩‍💻 Ada", "The name"),
    undefined,
    "a zero-width joiner is a format character, not a control one",
  );
});

test("accented letters, other scripts and typographic punctuation are accepted", () => {
  for (const text of [
    "José Müller-Lüdenscheidt",
    "Zoë Ångström",
    "Łukasz Żółć",
    "Nguyễn Văn An",
    "山田太郎",
    "Ὀδυσσεύς",
    "O’Brien – “Jr.”",
    "Café\u00a0Noir",
    "Acme, Inc.",
    "ap@acme.example",
  ]) {
    assert.equal(characterProblem(text, "The name"), undefined, text);
  }
});

test("with both, the control character is named, and the text itself is never quoted", () => {
  const problem = characterProblem("secret\uD800 then \u0007", "The city");
  assert.equal(
    problem,
    "The city contains a control character (U+0007), which cannot be saved. Ask the user to type it again.",
  );
  assert.doesNotMatch(problem ?? "", /secret/);
});

test("empty text has no problem: whether a value may be blank is the tool's own rule", () => {
  assert.equal(characterProblem("", "The name"), undefined);
});
