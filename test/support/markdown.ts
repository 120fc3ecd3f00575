/** One heading of a Markdown file, outside code fences. */
export interface Heading {
  readonly level: number;
  readonly title: string;
  /** The anchor GitHub gives it: `#the-http-api`. */
  readonly slug: string;
  /** Its line's index in the file, from 0. */
  readonly line: number;
}

/** The lines of `text` outside fenced code blocks; the lines inside are replaced by "". */
export function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return "";
    }
    if (fence !== undefined) {
      if (line.startsWith(fence) && line.slice(fence.length).trim() === "") fence = undefined;
      return "";
    }
    return line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every heading of `text`, with the anchors GitHub gives them (a repeated one gets `-1`, `-2`, …). */
export function headingsOf(text: string): Heading[] {
  const seen = new Map<string, number>();
  return proseLines(text).flatMap((line, index) => {
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) return [];
    const base = slugOf(match[2]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return [{ level: match[1]!.length, title: match[2]!, slug: count === 0 ? base : `${base}-${count}`, line: index }];
  });
}

/** The text under the heading titled `title`, up to the next heading of its level or above; undefined when there is none. */
export function sectionOf(text: string, title: string): string | undefined {
  const headings = headingsOf(text);
  const start = headings.findIndex((heading) => heading.title === title);
  if (start === -1) return undefined;
  const end = headings.slice(start + 1).find((heading) => heading.level <= headings[start]!.level);
  return text
    .split("\n")
    .slice(headings[start]!.line + 1, end?.line)
    .join("\n");
}

/** Each table row of `section` (outside code), as its cells. */
export function tableRowsOf(section: string): string[][] {
  return proseLines(section)
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .replace(/^\|/, "")
        .replace(/\|\s*$/, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** The names in backticks in `text`: "`MONGO_URL`, `DOCUMENT_DB`" → MONGO_URL, DOCUMENT_DB. */
export function codeNamesIn(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Each file a guide prints whole, by path: a line holding only a bold `path`, then its fenced block. */
export function printedFiles(guide: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, path, text] of guide.matchAll(/^\*\*`([^`]+)`\*\*\n\n```\w+\n([\s\S]*?)\n```$/gm))
    files.set(path!, `${text}\n`);
  return files;
}
