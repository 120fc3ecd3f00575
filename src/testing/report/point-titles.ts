/** Each point in a few words of our own; the guide's "New-flow checklist" has the full sentences. */
export const POINT_TITLES: Readonly<Record<string, string>> = Object.freeze({
  "1": "listed by GET /ai/flows",
  "2": "first answer carries a new session id",
  "3": "every turn checks answer, step, status",
  "4": "each tool refuses bad input in place",
  "5": "good input moves on, saves on its step",
  "6": "resumed turn keeps id and step",
  "7": "last turn completes, stored completed",
  "8": "final state, memory and log checked",
  "9": "child flows ran, saved, kept the cursor",
  "10": "migrations from every version, reset",
  "11": "other content types: body checked",
  "12": "npm run typecheck passed",
  steps: "every step reached",
  tools: "every tool saved and refused",
  transitions: "step-to-step moves taken",
});
