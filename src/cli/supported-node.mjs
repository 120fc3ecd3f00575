// The oldest Node flowcheck runs on, checked before anything else loads: every npm script preloads
// this file (`node --import ./src/cli/supported-node.mjs …`, `tsx --import ./src/cli/supported-node.mjs …`).
// Plain JavaScript, so an older Node reads it and says so in one line, not with a stack from
// whatever API it lacks (the runner needs node:test's `run({ isolation: "none" })` and
// `fs.globSync` as 22.18 has them).

/** The floor, as package.json's `engines.node` starts (`^22.18`). */
export const NODE_FLOOR = [22, 18];
/** The Node lines package.json's `engines.node` names and CI tests. */
export const NODE_LINES = [22, 24, 26];

/**
 * The one line an older Node gets, or undefined when `version` (e.g. "20.20.2") is new enough.
 * @param {string} version @returns {string | undefined}
 */
export function unsupportedNode(version) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor >= NODE_FLOOR[1])) return undefined;
  const lines = `${NODE_LINES.slice(0, -1).join(", ")} or ${NODE_LINES[NODE_LINES.length - 1]}`;
  return `flowcheck needs Node ${NODE_FLOOR.join(".")} or later (${lines}); this is ${version}`;
}

const refusal = unsupportedNode(process.versions.node);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
