import { runRecordFor } from "../../src/testing/report/run-record.ts";
import type { ProjectProof } from "../../src/testing/report/run-results.ts";
import { TMP_ROOT } from "./temp-path.ts";

/**
 * Notes in this run's results that a project-wide checklist point's test passed: call it as the
 * test's last line, so only a test that got there notes it. Outside flowcheck test nothing is recorded.
 */
export function noteProjectProof(point: ProjectProof["point"], key: string): void {
  runRecordFor(TMP_ROOT)?.emit({ type: "proof", data: { point, key } });
}
