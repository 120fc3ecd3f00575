import type { LoadedScenario, Scenario, ScenarioCase } from "./scenario.ts";
import { compilePattern } from "./compile-pattern.ts";

const PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9_]*)\}\}/g;

/** The parts of a scenario a case's values go into: the turns, the simulated user, and the final expectations. */
const TEMPLATED = ["turns", "user", "success", "finalState", "finalExecution", "finalChildren", "finalMemory"] as const;

/** Every string in `value` with `replace` applied, and the path of each string, depth first. */
function mapStrings(value: unknown, path: string, replace: (text: string, path: string) => string): unknown {
  if (typeof value === "string") return replace(value, path);
  if (Array.isArray(value)) return value.map((item, index) => mapStrings(item, `${path}[${index}]`, replace));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, `${path}.${key}`, replace)]),
    );
  }
  return value;
}

/** Each placeholder the scenario uses, with the first place that uses it. */
export function placeholdersIn(scenario: Scenario): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of TEMPLATED) {
    mapStrings(scenario[part], part, (text, path) => {
      for (const [, name] of text.matchAll(PLACEHOLDER)) if (!found.has(name!)) found.set(name!, path);
      return text;
    });
  }
  return found;
}

/** The scenario as `scenarioCase` plays it: its values in place of the placeholders, and no cases. */
export function expandCase(scenario: Scenario, scenarioCase: ScenarioCase): Scenario {
  const { cases: _cases, ...rest } = scenario;
  const expanded: Record<string, unknown> = { ...rest };
  for (const part of TEMPLATED) {
    if (scenario[part] === undefined) continue;
    expanded[part] = mapStrings(scenario[part], part, (text) =>
      text.replace(PLACEHOLDER, (whole, name: string) => scenarioCase.values[name] ?? whole),
    );
  }
  return expanded as unknown as Scenario;
}

/**
 * What is wrong with a scenario's cases: a placeholder without cases, or a case without a value
 * for one, a value no placeholder uses, a repeated label, a pattern a value breaks.
 */
export function caseProblems(scenario: Scenario): string[] {
  const used = placeholdersIn(scenario);
  if (!scenario.cases) {
    return [...used].map(
      ([name, path]) =>
        `${path}: uses {{${name}}}, but the scenario has no cases to give it a value; add "cases", or write the text out.`,
    );
  }
  const problems: string[] = [];
  const labels = new Map<string, number>();
  scenario.cases.forEach((scenarioCase, index) => {
    // A case the schema refused (no label, no values) has been reported already.
    if (scenarioCase.label === undefined || scenarioCase.values === undefined) return;
    const at = `cases[${index}] (case "${scenarioCase.label}")`;
    // The label names the case's suite, transcript and cassette, by its slug.
    const first = labels.get(caseSlug(scenarioCase.label));
    if (first !== undefined)
      problems.push(
        `${at}.label: "${scenarioCase.label}" names the same suite as cases[${first}]; each case needs a label of its own.`,
      );
    else labels.set(caseSlug(scenarioCase.label), index);
    for (const [name, path] of used) {
      if (!(name in scenarioCase.values)) problems.push(`${at}.values: no value for {{${name}}}, which ${path} uses.`);
    }
    for (const name of Object.keys(scenarioCase.values)) {
      if (!used.has(name))
        problems.push(
          `${at}.values.${name}: {{${name}}} is used nowhere in the turns, user, success or the final expectations.`,
        );
    }
    (expandCase(scenario, scenarioCase).turns ?? []).forEach((turn, turnIndex) => {
      for (const pattern of turn.responseMatches === undefined ? [] : [turn.responseMatches].flat()) {
        try {
          compilePattern(pattern);
        } catch (error) {
          problems.push(
            `${at}: turns[${turnIndex}].responseMatches becomes ${JSON.stringify(pattern)}, ` +
              `which is not a valid regular expression (${(error as Error).message}).`,
          );
        }
      }
    });
  });
  return problems;
}

/** `Jane Doe (placeholder)` → `jane-doe-placeholder`: how a case's label names its suite's files. */
export function caseSlug(label: string): string {
  return (
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "case"
  );
}

/** The scenarios a loaded file plays: itself, or one per case, each named `<name>.<case slug>`. */
export function scenarioCases(loaded: LoadedScenario): LoadedScenario[] {
  const cases = loaded.scenario.cases;
  if (!cases) return [loaded];
  return cases.map((scenarioCase) => ({
    file: loaded.file,
    name: `${loaded.name}.${caseSlug(scenarioCase.label)}`,
    scenario: expandCase(loaded.scenario, scenarioCase),
    caseLabel: scenarioCase.label,
    ...(loaded.lines ? { lines: loaded.lines } : {}),
  }));
}
