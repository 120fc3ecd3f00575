const NAME = "[A-Za-z_][A-Za-z0-9_.:-]*";
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/y;
const ATTRIBUTE = new RegExp(`\\s+(${NAME})="([^"<]*)"`, "y");
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Whether every `&` in `text` starts an entity XML knows. */
function entitiesOk(text: string): boolean {
  for (let at = text.indexOf("&"); at !== -1; at = text.indexOf("&", at + 1)) {
    ENTITY.lastIndex = at;
    if (!ENTITY.test(text)) return false;
  }
  return true;
}

/**
 * The problems that keep `xml` from being a well-formed XML 1.0 document, of the shape a report
 * writes (a declaration, elements, attributes in double quotes, text; no comments, CDATA or DTD):
 * an empty list when it is one. Small on purpose: the project adds no XML parser.
 */
export function wellFormedXml(xml: string): string[] {
  const problems: string[] = [];
  if (NOT_XML_CHAR.test(xml)) problems.push("holds a character XML 1.0 does not allow");
  let at = 0;
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!declaration) problems.push("no XML declaration first");
  else at = declaration[0].length;
  const open: string[] = [];
  let roots = 0;
  const tag = new RegExp(`<(/?)(${NAME})`, "y");
  while (at < xml.length && problems.length === 0) {
    const next = xml.indexOf("<", at);
    const text = xml.slice(at, next === -1 ? xml.length : next);
    if (!entitiesOk(text) || text.includes(">"))
      problems.push(`bad text at ${at}: ${JSON.stringify(text.slice(0, 40))}`);
    if (open.length === 0 && text.trim()) problems.push(`text outside the root at ${at}`);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(xml);
    if (!match) {
      problems.push(`a "<" that starts no tag at ${next}`);
      break;
    }
    at = tag.lastIndex;
    const [, closing, name] = match;
    if (closing) {
      if (open.pop() !== name) problems.push(`</${name}> closes nothing open at ${next}`);
      if (xml[at] !== ">") problems.push(`</${name} is not closed at ${at}`);
      at++;
      continue;
    }
    const seen = new Set<string>();
    for (ATTRIBUTE.lastIndex = at; ; ) {
      const attribute = ATTRIBUTE.exec(xml);
      if (!attribute) break;
      if (seen.has(attribute[1]!)) problems.push(`${name} has ${attribute[1]} twice`);
      if (!entitiesOk(attribute[2]!))
        problems.push(`bad attribute value at ${at}: ${JSON.stringify(attribute[2]!.slice(0, 40))}`);
      seen.add(attribute[1]!);
      at = ATTRIBUTE.lastIndex;
    }
    const end = /\s*(\/?)>/y;
    end.lastIndex = at;
    const closed = end.exec(xml);
    if (!closed) {
      problems.push(`<${name} is not closed at ${at}`);
      break;
    }
    at = end.lastIndex;
    if (open.length === 0) roots++;
    if (!closed[1]) open.push(name!);
  }
  if (open.length) problems.push(`left open: ${open.join(", ")}`);
  if (roots !== 1 && problems.length === 0) problems.push(`${roots} root elements`);
  return problems;
}
