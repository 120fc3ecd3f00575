// tsx test/tools/environment-table.ts [--write]: the table of docs/reference/environment.md, rendered from
// src/environment-variables.ts, the one table of the variables flowcheck reads. It prints the table;
// --write puts it in place of the one on that page. test/docs/docs-reference.spec.ts fails while the
// two differ, so a variable's default or meaning is written once, in the code.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ENVIRONMENT_VARIABLES, type EnvironmentVariable } from "../../src/environment-variables.ts";

export const ENVIRONMENT_PAGE = join(resolve(import.meta.dirname, "..", ".."), "docs", "reference", "environment.md");
const HEADER = "| variable | default | meaning |\n| --- | --- | --- |";

/** The Markdown table, one row per variable, in the table's order. */
export function renderEnvironmentTable(): string {
  const rows = Object.entries(ENVIRONMENT_VARIABLES).map(([name, variable]: [string, EnvironmentVariable]) => {
    const shown = variable.shown ?? (variable.default === undefined ? "unset" : `\`${variable.default}\``);
    return `| \`${name}\` | ${shown} | ${variable.doc} |`;
  });
  return `${HEADER}\n${rows.join("\n")}`;
}

/** The table under `## Variables` in `text`, as it stands: from its header to its last row. */
export function environmentTableIn(text: string): string | undefined {
  const section = text.indexOf("\n## Variables\n");
  const start = section === -1 ? -1 : text.indexOf(HEADER, section);
  if (start === -1) return undefined;
  const lines = text.slice(start).split("\n");
  const end = lines.findIndex((line) => !line.startsWith("|"));
  return lines.slice(0, end === -1 ? undefined : end).join("\n");
}

if (import.meta.filename === process.argv[1] || import.meta.filename === resolve(process.argv[1] ?? "")) {
  const table = renderEnvironmentTable();
  if (process.argv.includes("--write")) {
    const text = readFileSync(ENVIRONMENT_PAGE, "utf8");
    const current = environmentTableIn(text);
    if (current === undefined)
      throw new Error(
        `${ENVIRONMENT_PAGE} has no table of variables to replace (a "${HEADER.split("\n")[0]}" header under "## Variables")`,
      );
    writeFileSync(ENVIRONMENT_PAGE, text.replace(current, table));
    console.log(`environment-table: wrote ${Object.keys(ENVIRONMENT_VARIABLES).length} rows into ${ENVIRONMENT_PAGE}`);
  } else {
    console.log(table);
  }
}
