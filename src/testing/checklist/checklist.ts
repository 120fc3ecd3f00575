import type { ChecklistPoint } from "../report/run-results.ts";

export type { ChecklistPoint, FlowChecklist, PointStatus } from "../report/run-results.ts";

export const proved = (id: string, detail: string): ChecklistPoint => ({ id, status: "proved", detail });
export const missing = (id: string, detail: string): ChecklistPoint => ({ id, status: "missing", detail });
export const notApplicable = (id: string, detail: string): ChecklistPoint => ({ id, status: "not applicable", detail });
