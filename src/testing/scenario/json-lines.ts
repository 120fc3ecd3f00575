/**
 * The line (1-based) on which each value of a JSON text starts, by JSON pointer (`/turns/2`), so
 * a message can name `file:line` for a place that `JSON.parse` has already proved sound. For an
 * object member the line is the key's. The text must be valid JSON.
 */
export function jsonLines(text: string): Map<string, number> {
  const scanner = new JsonScanner(text);
  scanner.value("", 0);
  return scanner.lines;
}

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** A cursor over valid JSON text that notes each value's line as it passes. */
class JsonScanner {
  readonly lines = new Map<string, number>();
  readonly #text: string;
  #at = 0;
  #line = 1;

  constructor(text: string) {
    this.#text = text;
  }

  /** Reads the value at the cursor, noting its line (`keyLine` for an object member's). */
  value(pointer: string, keyLine: number): void {
    this.#skipSpace();
    this.lines.set(pointer, keyLine || this.#line);
    const char = this.#text[this.#at];
    if (char === "{" || char === "[") this.#container(pointer, char === "{" ? "}" : "]");
    else if (char === '"') this.#string();
    else while (this.#at < this.#text.length && !/[\s,\]}]/.test(this.#text[this.#at]!)) this.#at += 1;
  }

  #container(pointer: string, close: string): void {
    this.#at += 1;
    this.#skipSpace();
    for (let index = 0; this.#text[this.#at] !== close; index++) {
      if (close === "}") {
        const keyLine = this.#line;
        const key = this.#string();
        this.#skipSpace();
        this.#at += 1; // the colon
        this.value(`${pointer}/${escapeKey(key)}`, keyLine);
      } else {
        this.value(`${pointer}/${index}`, 0);
      }
      this.#skipSpace();
      if (this.#text[this.#at] === ",") {
        this.#at += 1;
        this.#skipSpace();
      }
    }
    this.#at += 1;
  }

  #string(): string {
    const start = this.#at;
    this.#at += 1;
    while (this.#text[this.#at] !== '"') this.#at += this.#text[this.#at] === "\\" ? 2 : 1;
    this.#at += 1;
    return JSON.parse(this.#text.slice(start, this.#at)) as string;
  }

  #skipSpace(): void {
    for (; this.#at < this.#text.length; this.#at++) {
      const char = this.#text[this.#at]!;
      if (char === "\n") this.#line += 1;
      else if (char !== " " && char !== "\t" && char !== "\r") return;
    }
  }
}
