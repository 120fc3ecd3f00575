import { SESSION_DOCUMENT_VERSION } from "../../engine/session-document.ts";
import type { ProjectProof } from "../report/run-results.ts";
import { proved, type ChecklistPoint } from "./checklist.ts";

const NOT_RUN = (what: string): ChecklistPoint["detail"] => `not in this run: ${what} (npm test runs it)`;

/** 10: the migration specs read a fixture of every version and the reset spec took the reset path, in this run. */
export function migrationsPoint(proofs: readonly ProjectProof[]): ChecklistPoint {
  const keys = new Set(proofs.filter((proof) => proof.point === "10").map((proof) => proof.key));
  const versions = Array.from({ length: SESSION_DOCUMENT_VERSION }, (_, index) => `v${index + 1}`);
  const absent = [...versions, "reset"].filter((key) => !keys.has(key));
  if (absent.length === versions.length + 1)
    return {
      id: "10",
      status: "not judged",
      detail: NOT_RUN("test/store/migrations/migrate-session.spec.ts and test/engine/session-reset.spec.ts"),
    };
  if (absent.length)
    return {
      id: "10",
      status: "missing",
      detail: `no passing migration or reset test for ${absent.join(", ")}: add the fixture under test/fixtures/sessions and its test`,
    };
  return proved("10", `versions ${versions.join(", ")} migrated, and the reset path answered a new session id`);
}

/** 12: `npm test` ran the typecheck before the suites, and it passed. */
export function typecheckPoint(proofs: readonly ProjectProof[]): ChecklistPoint {
  if (proofs.some((proof) => proof.point === "12")) return proved("12", "npm run typecheck passed before the suites");
  return { id: "12", status: "not judged", detail: NOT_RUN("npm run typecheck") };
}
