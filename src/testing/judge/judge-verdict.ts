import { compileSchema } from "../../engine/schema-validator.ts";
import type { Verdict } from "../checks/check.ts";

// The engine's ajv, with the same options: an instance of its own would compile ajv's meta-schema
// again, in every test process, judged or not.
const validateVerdict = compileSchema<Verdict>({
  type: "object",
  properties: {
    pass: { type: "boolean" },
    score: { type: "number", minimum: 0, maximum: 1 },
    reason: { type: "string" },
    missing: { type: "array", items: { type: "string" } },
    contradictions: { type: "array", items: { type: "string" } },
  },
  required: ["pass", "score", "reason", "missing", "contradictions"],
});

/** The verdict in a judge's answer, or what is wrong with the answer (a missing `pass` included). */
export function parseVerdict(text: string): { verdict: Verdict } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "the answer is not JSON" };
  }
  if (!validateVerdict(value)) {
    const problems = (validateVerdict.errors ?? []).map((e) =>
      e.keyword === "required"
        ? `"${String(e.params["missingProperty"])}" is missing`
        : `${e.instancePath.slice(1) || "the answer"} ${e.message ?? "is invalid"}`,
    );
    return { problem: problems.join("; ") };
  }
  const { pass, score, reason, missing, contradictions } = value;
  return { verdict: { pass, score, reason, missing, contradictions } };
}
