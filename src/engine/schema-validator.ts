import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";

// Compiling a schema is ajv's cost: about 0.2 s of every test process's start for the flows' tool
// schemas, the session document's and the scenario file's. A compiled validator is the same code
// for the same schema, options and ajv version, so it is kept as ajv's standalone code under
// node_modules/.cache/flowcheck/validators and required from there the next time, as a module, without
// loading ajv at all. A cache that cannot be read or written is only a compile.

const require = createRequire(import.meta.url);

/** The JSON Schema dialects we compile: tool parameters and our own documents, and the scenario file's. */
export type Dialect = "draft-07" | "2020-12";

const OPTIONS: Record<Dialect, Options> = {
  "draft-07": { allErrors: true, strict: true },
  // The scenario schema is ours, and test/testing/scenario/load-scenario.spec.ts checks it against ajv's
  // meta-schema; its errors carry the offending value and the schema around it.
  "2020-12": { allErrors: true, strict: true, verbose: true, validateSchema: false },
};
const AJV_MODULE: Record<Dialect, string> = { "draft-07": "ajv", "2020-12": "ajv/dist/2020.js" };
const AJV_PATH = require.resolve("ajv");
const AJV_VERSION = (
  JSON.parse(readFileSync(join(dirname(AJV_PATH), "..", "package.json"), "utf8")) as { version: string }
).version;
/** node_modules/.cache/flowcheck/validators, beside the package whose code the validators run. */
export const VALIDATOR_CACHE = join(dirname(AJV_PATH), "..", "..", ".cache", "flowcheck", "validators");

// One instance per dialect for the process, made on the first compile: ajv caches compiled schemas per instance.
const instances = new Map<Dialect, Ajv>();

function ajvFor(dialect: Dialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    const { default: AjvClass } = require(AJV_MODULE[dialect]) as { default: new (options: Options) => Ajv };
    instances.set(dialect, (ajv = new AjvClass({ ...OPTIONS[dialect], code: { source: true } })));
  }
  return ajv;
}

/** The validator that ajv's standalone code in `file` exports, if it is there and loads. */
function load<T>(file: string): ValidateFunction<T> | undefined {
  try {
    // Standalone code is a CommonJS module; it requires ajv's small runtime helpers, found from
    // node_modules/.cache as any module under node_modules finds its packages.
    const exported = require(file) as { default?: ValidateFunction<T> };
    return typeof exported.default === "function" ? exported.default : undefined;
  } catch {
    return undefined;
  }
}

function save(file: string, code: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Written whole, then put in place: another process reads the old file or the new, never half of one.
    const written = `${file}.${process.pid}`;
    writeFileSync(written, code);
    renameSync(written, file);
  } catch {
    // A read-only node_modules: the next process compiles again.
  }
}

export function compileSchema<T = unknown>(
  schema: Record<string, unknown>,
  dialect: Dialect = "draft-07",
): ValidateFunction<T> {
  const key = createHash("sha256")
    .update(`${AJV_VERSION}\n${dialect}\n${JSON.stringify(OPTIONS[dialect])}\n${JSON.stringify(schema)}`)
    .digest("hex")
    .slice(0, 32);
  const file = join(VALIDATOR_CACHE, `${key}.cjs`);
  const cached = load<T>(file);
  if (cached) return cached;
  const ajv = ajvFor(dialect);
  const validate = ajv.compile<T>(schema);
  const { default: standaloneCode } = require("ajv/dist/standalone") as {
    default: (ajv: Ajv, validate: ValidateFunction) => string;
  };
  save(file, standaloneCode(ajv, validate as ValidateFunction));
  return validate;
}

/** `/name must be string; /zip must match pattern "^\d{5}$"` — short enough for a model or a log line. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return "invalid";
  return errors
    .map((e) => {
      if (e.keyword === "additionalProperties") {
        return `${e.instancePath || "/"} has unknown property "${String(e.params["additionalProperty"])}"`;
      }
      return `${e.instancePath || "/"} ${e.message ?? "is invalid"}`;
    })
    .join("; ");
}
