import { runIdOf } from "../../src/config.ts";
import { writeResultsLine } from "../../src/testing/report/results-part.ts";
import type { ProjectProof } from "../../src/testing/report/run-results.ts";
import { TMP_ROOT } from "./temp-path.ts";

/**
 * Notes in this run's results that a project-wide checklist point's test passed: call it as the
 * test's last line, so only a test that got there notes it. Outside run-specs nothing is written.
 */
export function noteProjectProof(point: ProjectProof["point"], key: string): void {
  writeResultsLine(TMP_ROOT, runIdOf(), { projectProof: { point, key } });
}
