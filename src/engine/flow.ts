import type { ValidateFunction } from "ajv";
import { FlowcheckError } from "../errors.ts";
import type { ToolDefinition } from "./chat-model.ts";
import { envPrefixOf } from "./env-prefix.ts";
import { compileSchema } from "./schema-validator.ts";
import type { FlowShape, StepNameOf, UntypedFlow } from "./flow-types.ts";
import type { RunStatus, StepStates } from "./session-document.ts";
import type { StepClass } from "./step.ts";
import { toolsOf } from "./tool.ts";

/** `services` is required when the flow's types declare services, and absent otherwise. */
type ServicesOption<F extends FlowShape> = undefined extends F["services"]
  ? { services?: F["services"] }
  : { services: F["services"] };

export type FlowOptions<F extends FlowShape = UntypedFlow> = ServicesOption<F> & {
  /** PascalCase, e.g. `BasicFlow`; also names the flow's env pins (`BASIC_FLOW_…`). */
  name: string;
  description: string;
  /**
   * The step classes by name, in order (`{ NameStep, WeatherStep }`: each key is its class's
   * name); the first is where a new session starts. An untyped flow may list them as an array.
   */
  steps: string extends StepNameOf<F> ? Readonly<Record<string, StepClass>> | readonly StepClass[] : F["steps"];
  /** Model calls one turn may make before it fails with `tool_loop_exceeded`. Default 8. */
  maxModelCalls?: number;
  /** Child flows this flow runs, so their models follow this flow's model mode. */
  children?: FlowDefinition[];
  /**
   * Other shapes the session can be answered in, by media type (e.g. `text/csv`): a client that
   * sends that `Accept` gets, after its turn, the rendering of the session instead of the JSON.
   */
  renderers?: Readonly<Record<string, Renderer>>;
};

/** Renders a session's state as a document of some media type. */
export type Renderer = (session: { steps: StepStates; runStatus: RunStatus; currentStep: string }) => string;

export interface CompiledTool extends ToolDefinition {
  method: string;
  validate: ValidateFunction;
}

/** A defined flow; `F` is its `FlowTypes`, which `runChild` reads its input and output from. */
export interface FlowDefinition<F extends FlowShape = UntypedFlow> {
  /** Carries the flow's types; never set at run time. */
  readonly "~types"?: F;
  readonly name: string;
  readonly description: string;
  readonly steps: readonly StepClass[];
  readonly stepNames: readonly string[];
  readonly firstStep: string;
  readonly maxModelCalls: number;
  readonly children: readonly FlowDefinition[];
  readonly renderers: Readonly<Record<string, Renderer>>;
  /** What the steps get as `context.services`. */
  readonly services: F["services"];
  /** `BASIC_FLOW` for `BasicFlow`: the prefix of the flow's environment variables. */
  readonly envPrefix: string;
  step(name: string): StepClass | undefined;
  tools(step: string): readonly CompiledTool[];
}

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A step's tools, each name checked and its parameters schema compiled; `fail` throws. */
function compileTools(step: string, stepClass: StepClass, fail: (message: string) => never): CompiledTool[] {
  const seen = new Set<string>();
  return toolsOf(stepClass).map((declared) => {
    const at = `step ${step}, tool "${declared.name}"`;
    if (!TOOL_NAME.test(declared.name)) fail(`${at}: a tool name is 1-64 letters, digits, _ or -.`);
    if (seen.has(declared.name)) fail(`${at}: the name is declared twice on this step.`);
    seen.add(declared.name);
    if (declared.parameters["type"] !== "object")
      fail(`${at}: parameters must be a JSON Schema with "type": "object".`);
    let validate: ValidateFunction;
    try {
      validate = compileSchema(declared.parameters);
    } catch (error) {
      return fail(`${at}: its parameters schema does not compile: ${(error as Error).message}`);
    }
    return {
      name: declared.name,
      description: declared.description,
      parameters: declared.parameters,
      method: declared.method,
      validate,
    };
  });
}

/** The step classes in order, from an object keyed by their names (each key checked) or an array. */
function stepList(
  steps: Readonly<Record<string, StepClass>> | readonly StepClass[],
  fail: (message: string) => never,
): StepClass[] {
  if (Array.isArray(steps)) return [...steps];
  return Object.entries(steps).map(([key, stepClass]) => {
    if (typeof stepClass !== "function") fail(`steps.${key} is not a step class.`);
    if (key !== stepClass.name)
      fail(
        `steps.${key} is the class ${stepClass.name}; a step is keyed by its class's name, e.g. { ${stepClass.name} }.`,
      );
    return stepClass;
  });
}

/**
 * Checks a flow once, compiles its tool schemas, and freezes it. `F` is the flow's `FlowTypes`,
 * for a flow whose steps are typed with it; an untyped flow leaves it out.
 *
 * @example
 * const steps = { NameStep, WeatherStep, AddressStep };
 * export interface BasicFlowTypes extends FlowTypes<typeof steps> {}
 * export const BasicFlow = defineFlow<BasicFlowTypes>({ name: "BasicFlow", description: "Name, weather, address.", steps });
 */
export function defineFlow<F extends FlowShape = UntypedFlow>(options: FlowOptions<F>): FlowDefinition<F> {
  const where = `flow "${options.name}"`;
  const fail = (message: string): never => {
    throw new FlowcheckError("flow_invalid", `${where}: ${message}`);
  };
  if (!PASCAL_CASE.test(options.name)) fail("the name must be PascalCase letters and digits, e.g. BasicFlow.");
  const steps = stepList(options.steps as Readonly<Record<string, StepClass>> | readonly StepClass[], fail);
  if (steps.length === 0) fail("it has no steps; give at least one step class.");
  const maxModelCalls = options.maxModelCalls ?? 8;
  if (!Number.isInteger(maxModelCalls) || maxModelCalls < 1)
    fail(`maxModelCalls must be a positive integer, got ${maxModelCalls}.`);
  for (const mediaType of Object.keys(options.renderers ?? {})) {
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(mediaType) || mediaType !== mediaType.toLowerCase()) {
      fail(`renderer "${mediaType}" is not a lower-case media type such as text/csv.`);
    }
  }

  const byName = new Map<string, StepClass>();
  const toolsByStep = new Map<string, CompiledTool[]>();
  for (const stepClass of steps) {
    const name = stepClass.name;
    if (!PASCAL_CASE.test(name)) fail(`step class name "${name}" must be PascalCase; it names the step's state.`);
    if (byName.has(name)) fail(`step "${name}" is listed twice.`);
    byName.set(name, stepClass);
    const compiled = compileTools(name, stepClass, fail);
    toolsByStep.set(name, compiled);
  }

  const stepNames = Object.freeze([...byName.keys()]);
  return Object.freeze({
    name: options.name,
    description: options.description,
    steps: Object.freeze(steps),
    stepNames,
    firstStep: stepNames[0]!,
    maxModelCalls,
    children: Object.freeze([...(options.children ?? [])]),
    renderers: Object.freeze({ ...(options.renderers ?? {}) }),
    services: options.services as F["services"],
    envPrefix: envPrefixOf(options.name),
    step: (name: string) => byName.get(name),
    tools: (step: string) => toolsByStep.get(step) ?? [],
  });
}
