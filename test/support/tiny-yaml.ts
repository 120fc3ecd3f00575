/**
 * The YAML a GitHub workflow of this repository is written in, parsed: block mappings and
 * sequences by indentation, plain, quoted and `[a, b]` scalars, `|` block scalars, comments. It
 * throws, naming the line, on anything else, such as a tab, a bad indent or a key given twice, so
 * a test can tell a workflow is well-formed without adding a YAML package to the project.
 */
export function parseTinyYaml(text: string): unknown {
  const lines = text.split("\n").map((raw, index) => ({ raw, number: index + 1 }));
  for (const line of lines)
    if (/^\s*\t/.test(line.raw)) throw new Error(`line ${line.number}: a tab in the indentation`);
  const parser = new Parser(lines.filter((line) => line.raw.trim() !== "" && !/^\s*#/.test(line.raw)));
  const value = parser.block(0);
  if (!parser.done()) throw new Error(`line ${parser.line()}: not part of the document's structure`);
  return value;
}

type Line = { raw: string; number: number };

const indentOf = (line: Line) => line.raw.length - line.raw.trimStart().length;

function stripComment(text: string): string {
  // A quote opens a quoted scalar only where the scalar starts; inside a plain one it is text.
  const quote = text[0] === '"' || text[0] === "'" ? text[0] : undefined;
  const end = quote ? text.indexOf(quote, 1) : -1;
  if (quote && end === -1) throw new Error(`an unclosed ${quote} in ${JSON.stringify(text)}`);
  const comment = text.slice(quote ? end + 1 : 0).search(/(^|\s)#/);
  return comment === -1 ? text.trimEnd() : text.slice(0, (quote ? end + 1 : 0) + comment).trimEnd();
}

function scalar(text: string): unknown {
  if (/^".*"$/.test(text)) return JSON.parse(text) as string;
  if (/^'.*'$/.test(text)) return text.slice(1, -1).replace(/''/g, "'");
  if (/^\[.*\]$/.test(text))
    return text
      .slice(1, -1)
      .split(",")
      .map((item) => scalar(item.trim()));
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  if (/^[[\]{}>&*!%@`]/.test(text)) throw new Error(`${JSON.stringify(text)} is YAML this parser does not read`);
  return text;
}

class Parser {
  #at = 0;
  constructor(readonly lines: Line[]) {}

  done(): boolean {
    return this.#at >= this.lines.length;
  }

  line(): number {
    return this.lines[this.#at]?.number ?? -1;
  }

  /** The mapping or sequence whose lines start at `indent`. */
  block(indent: number): unknown {
    const first = this.lines[this.#at];
    if (!first || indentOf(first) !== indent)
      throw new Error(`line ${first?.number ?? "end"}: expected a block indented ${indent}`);
    return first.raw.trimStart().startsWith("- ") || first.raw.trim() === "-"
      ? this.sequence(indent)
      : this.mapping(indent);
  }

  sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    while (
      !this.done() &&
      indentOf(this.lines[this.#at]!) === indent &&
      this.lines[this.#at]!.raw.trimStart().startsWith("-")
    ) {
      const line = this.lines[this.#at]!;
      const rest = line.raw.trimStart().slice(1);
      // `- key: value` opens a mapping whose keys line up two columns further in.
      this.lines[this.#at] = { raw: `${" ".repeat(indent + 1)}${rest}`, number: line.number };
      items.push(
        rest.trim() && !/^\s*[^\s"']+:(\s|$)/.test(rest)
          ? this.#scalarLine()
          : this.block(indent + 1 + (rest.length - rest.trimStart().length)),
      );
    }
    return items;
  }

  #scalarLine(): unknown {
    const line = this.lines[this.#at++]!;
    return scalar(stripComment(line.raw.trim()));
  }

  mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    while (!this.done() && indentOf(this.lines[this.#at]!) === indent) {
      const line = this.lines[this.#at++]!;
      const match = /^("[^"]*"|'[^']*'|[^\s"'#][^:#]*?):(?:\s+(.*))?$/.exec(line.raw.trim());
      if (!match) throw new Error(`line ${line.number}: expected "key: value", got ${JSON.stringify(line.raw.trim())}`);
      const key = String(scalar(match[1]!));
      if (key in map) throw new Error(`line ${line.number}: ${key} given twice`);
      const value = stripComment(match[2] ?? "");
      map[key] = value === "|" ? this.#blockScalar(indent) : value ? scalar(value) : this.#nested(indent, line);
    }
    if (!this.done() && indentOf(this.lines[this.#at]!) > indent)
      throw new Error(`line ${this.line()}: indented more than its mapping`);
    return map;
  }

  #nested(indent: number, line: Line): unknown {
    const next = this.lines[this.#at];
    if (!next || indentOf(next) <= indent) {
      // A sequence may stand at its key's own indentation.
      if (next && indentOf(next) === indent && next.raw.trimStart().startsWith("- ")) return this.sequence(indent);
      return null;
    }
    if (!next) throw new Error(`line ${line.number}: nothing under the key`);
    return this.block(indentOf(next));
  }

  #blockScalar(indent: number): string {
    const text: string[] = [];
    while (!this.done() && indentOf(this.lines[this.#at]!) > indent) text.push(this.lines[this.#at++]!.raw.trim());
    return `${text.join("\n")}\n`;
  }
}
