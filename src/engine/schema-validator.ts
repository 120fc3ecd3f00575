import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

// One instance for the process: ajv caches compiled schemas per instance, and compiling is the cost.
const ajv = new Ajv({ allErrors: true, strict: true });

export function compileSchema<T = unknown>(schema: Record<string, unknown>): ValidateFunction<T> {
  return ajv.compile<T>(schema);
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
