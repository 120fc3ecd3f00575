import { FlowcheckError } from "../../errors.ts";
import type { FlowNames } from "./flow-name.ts";

const LIST = /(export const teamFlows: readonly FlowEntry\[\] = (?:Object\.freeze\()?\[)([^\]]*)(\])(.*)/;
/** biome.json's formatter.lineWidth: a list longer than this is one entry a line, as Biome lays it out. */
const LINE_WIDTH = 120;

/** The list's entries on one line when it fits, else one a line with a trailing comma, as Biome writes them. */
function layOut(head: string, entries: string[], tail: string): string {
  const oneLine = `${head}${entries.join(", ")}${tail}`;
  if (oneLine.length <= LINE_WIDTH) return oneLine;
  return `${head}\n${entries.map((entry) => `  ${entry},\n`).join("")}${tail}`;
}

/** `team-flows.ts` with the flow's entry imported and added to `teamFlows`; `team_flows_unreadable` when the file has no such list to add to. */
export function registerTeamFlow(text: string, names: FlowNames, file: string): string {
  const list = LIST.exec(text);
  if (!list) {
    throw new FlowcheckError(
      "team_flows_unreadable",
      `${file} has no "export const teamFlows: readonly FlowEntry[] = [...]" list to add ${names.flow} to; restore that line (see docs/first-flow.md, step 4), then run new:flow again.`,
    );
  }
  const entries = list[2]!
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const imports = `import { ${names.camel}Entry } from "./${names.folder}/index.ts";\n`;
  const listed = text.replace(LIST, (_all, head: string, _items: string, close: string, rest: string) =>
    layOut(head, [...entries, `${names.camel}Entry`], `${close}${rest}`),
  );
  const lastImport = [...listed.matchAll(/^import .*;\n/gm)].at(-1);
  const at = lastImport ? lastImport.index + lastImport[0].length : 0;
  return listed.slice(0, at) + imports + listed.slice(at);
}
