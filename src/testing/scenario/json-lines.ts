/**
 * The line (1-based) on which each value of a JSON text starts, by JSON pointer (`/turns/2`), so
 * a message can name `file:line` for a place that `JSON.parse` has already proved sound. For an
 * object member the line is the key's. The text must be valid JSON.
 */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let at = 0;
  let line = 1;

  const skipSpace = () => {
    while (at < text.length) {
      const char = text[at]!;
      if (char === "\n") line += 1;
      else if (char !== " " && char !== "\t" && char !== "\r") return;
      at += 1;
    }
  };
  const readString = (): string => {
    const start = at;
    at += 1;
    while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

  const readValue = (pointer: string, keyLine: number) => {
    skipSpace();
    lines.set(pointer, keyLine || line);
    const char = text[at];
    if (char === "{" || char === "[") {
      const close = char === "{" ? "}" : "]";
      at += 1;
      skipSpace();
      let index = 0;
      while (text[at] !== close) {
        if (close === "}") {
          const memberLine = line;
          const key = readString();
          skipSpace();
          at += 1; // the colon
          readValue(`${pointer}/${escape(key)}`, memberLine);
        } else {
          readValue(`${pointer}/${index}`, 0);
        }
        index += 1;
        skipSpace();
        if (text[at] === ",") {
          at += 1;
          skipSpace();
        }
      }
      at += 1;
    } else if (char === '"') {
      readString();
    } else {
      while (at < text.length && !/[\s,\]}]/.test(text[at]!)) at += 1;
    }
  };

  readValue("", 0);
  return lines;
}
