import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The kinds of target `flowcheck init` writes, the first its default. */
export const INIT_KINDS = ["http", "langgraph", "flowcheck"] as const;
export type InitKind = (typeof INIT_KINDS)[number];

/** The target's name in the written config, which the scenario names. */
export const INIT_TARGET = "app";
export const INIT_CONFIG = "flowcheck.config.json";
export const INIT_SCENARIO = join("scenarios", "first.scenario.json");

// The schemas this code ships, beside its src/ folder: this repository's root, or the package's dist/.
const CONFIG_SCHEMA = fileURLToPath(new URL("../../../flowcheck.config.schema.json", import.meta.url));
const SCENARIO_SCHEMA = fileURLToPath(new URL("../../../scenarios/scenario.schema.json", import.meta.url));

/** `file` as a `$schema` written in `folder` names it: relative, with forward slashes. */
function schemaPath(folder: string, file: string): string {
  const path = relative(folder, file).split(sep).join("/");
  return path.startsWith("../") ? path : `./${path}`;
}

/** What the first scenario plays: a flow of the target and the step it stays on while it greets. */
interface FirstFlow {
  name: string;
  step: string;
}

/**
 * The first flow of each kind: a LangGraph graph is named by its id in langgraph.json and its
 * steps are its nodes; a flow of flowcheck's engine and its steps are PascalCase.
 */
const FIRST_FLOWS: Record<InitKind, FirstFlow> = {
  http: { name: "chat", step: "greet" },
  langgraph: { name: "agent", step: "greet" },
  flowcheck: { name: "ChatFlow", step: "GreetStep" },
};

/**
 * One target of each kind, every required key present with a value that loads as it is (no
 * `${VAR}`): a server on 127.0.0.1 that the team points at its own. The http one is an API taking
 * `{ session, message }` and answering `{ session, reply, step }`, as docs/testing-http-api.md's
 * does, its flow's steps listed so that a misspelt one is refused before a turn runs.
 */
const TARGETS: Record<InitKind, Record<string, unknown>> = {
  http: {
    kind: "http",
    baseUrl: "http://127.0.0.1:3000",
    turn: { path: "/chat", body: { session: "{{session}}", message: "{{input}}" } },
    answer: { text: "/reply", session: "/session", step: "/step" },
    flows: { [FIRST_FLOWS.http.name]: { steps: [FIRST_FLOWS.http.step] } },
  },
  langgraph: { kind: "langgraph", baseUrl: "http://127.0.0.1:2024" },
  flowcheck: { kind: "flowcheck", baseUrl: "http://127.0.0.1:3000" },
};

/** The files `flowcheck init` writes in `cwd` for a target of `kind`, by path relative to `cwd`, as text. */
export function initFiles(cwd: string, kind: InitKind): Map<string, string> {
  const flow = FIRST_FLOWS[kind];
  const config = {
    $schema: schemaPath(cwd, CONFIG_SCHEMA),
    targets: { [INIT_TARGET]: TARGETS[kind] },
  };
  const scenario = {
    $schema: schemaPath(join(cwd, "scenarios"), SCENARIO_SCHEMA),
    flowName: flow.name,
    target: INIT_TARGET,
    description: `A first conversation with the target "${INIT_TARGET}": change flowName, the inputs, the steps and what each answer must say to your app's.`,
    turns: [
      { label: "greets", input: "Hello", expectedActiveStep: flow.step, responseMustInclude: ["hello"] },
      {
        label: "says what it does",
        input: "What can you help me with?",
        expectedActiveStep: flow.step,
        responseMustNotInclude: ["error"],
      },
    ],
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return new Map([
    [INIT_CONFIG, json(config)],
    [INIT_SCENARIO, json(scenario)],
  ]);
}
