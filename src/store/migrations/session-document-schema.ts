import { compileSchema } from "../../engine/schema-validator.ts";
import type { SessionDocument, SessionHead } from "../../engine/session-document.ts";

const runStatus = { enum: ["running", "completed", "failed"] };
const stepStates = { type: "object", additionalProperties: { type: "object" } };
const memoryEntry = {
  type: "object",
  properties: { role: { enum: ["user", "assistant", "tool", "handoff"] }, content: { type: "string" } },
  required: ["role", "content"],
  // A hand-off names the step it came from (version 2 on).
  if: { properties: { role: { const: "handoff" } } },
  then: { properties: { from: { type: "string", minLength: 1 } }, required: ["from"] },
};
const memory = { type: "object", additionalProperties: { type: "array", items: memoryEntry } };
const executionEntry = {
  type: "object",
  properties: {
    seq: { type: "integer", minimum: 1 },
    turn: { type: "integer", minimum: 1 },
    step: { type: "string" },
    kind: { enum: ["tool", "child"] },
    name: { type: "string" },
    outcome: { type: "string" },
  },
  required: ["seq", "turn", "step", "kind", "name", "outcome"],
};

const headProperties = {
  id: { type: "string", minLength: 1 },
  version: { type: "integer" },
  turns: { type: "integer", minimum: 0 },
  flow: {
    type: "object",
    properties: { name: { type: "string", minLength: 1 }, currentStep: { type: "string", minLength: 1 } },
    required: ["name", "currentStep"],
  },
  runStatus,
  steps: stepStates,
  children: {
    type: "array",
    items: {
      type: "object",
      properties: {
        flow: { type: "string" },
        parentStep: { type: "string" },
        turn: { type: "integer" },
        runStatus,
        currentStep: { type: "string" },
        steps: stepStates,
        memory,
        execution: { type: "array", items: executionEntry },
      },
      required: ["flow", "parentStep", "turn", "runStatus", "currentStep", "steps", "memory", "execution"],
    },
  },
  createdAt: { type: "string" },
  updatedAt: { type: "string" },
};
const headRequired = ["id", "version", "turns", "flow", "runStatus", "steps", "children", "createdAt", "updatedAt"];

/** The current session document's shape: what a migrated document must be before anyone reads it. */
export const validateSessionDocument = compileSchema<SessionDocument>({
  type: "object",
  properties: { ...headProperties, memory, execution: { type: "array", items: executionEntry } },
  required: [...headRequired, "memory", "execution"],
});

/** The current head's shape, for reads that leave the conversation in the store. */
export const validateSessionHead = compileSchema<SessionHead>({
  type: "object",
  properties: headProperties,
  required: headRequired,
});
