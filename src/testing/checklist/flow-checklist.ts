import type { FlowDefinition } from "../../engine/flow.ts";
import { flowFamily } from "../../engine/flow-family.ts";
import type { RunResults } from "../report/run-results.ts";
import { notApplicable, type ChecklistPoint, type FlowChecklist } from "./checklist.ts";
import { evidenceOf, type FlowEvidence } from "./flow-evidence.ts";
import { childrenPoint, contentTypesPoint, finalPoint } from "./final-points.ts";
import { migrationsPoint, typecheckPoint } from "./project-points.ts";
import { stepsPoint, transitionsPoint } from "./reach-points.ts";
import { completedPoint, everyTurnPoint, firstAnswerPoint, listedPoint, resumedPoint } from "./session-points.ts";
import { advancesPoint, refusesPoint, toolsPoint } from "./state-points.ts";

export interface ChecklistInput {
  results: RunResults;
  /** The registered flows, each judged with its children. */
  flows: readonly FlowDefinition[];
  /** Every scenario file of each flow, by flow name: a flow is judged only when all of them ran. */
  scenarioFiles: Readonly<Record<string, readonly string[]>>;
  /** Whether a flow's missing points fail the run. */
  strict: (flow: FlowDefinition) => boolean;
}

function rootPoints(evidence: FlowEvidence, results: RunResults): ChecklistPoint[] {
  const proofs = results.projectProofs ?? [];
  return [
    listedPoint(evidence),
    firstAnswerPoint(evidence),
    everyTurnPoint(evidence),
    refusesPoint(evidence, false),
    advancesPoint(evidence),
    resumedPoint(evidence),
    completedPoint(evidence),
    finalPoint(evidence),
    childrenPoint(evidence),
    migrationsPoint(proofs),
    contentTypesPoint(evidence),
    typecheckPoint(proofs),
    stepsPoint(evidence),
    toolsPoint(evidence, false),
    transitionsPoint(evidence),
  ];
}

/** A child flow has no scenarios and no turns of its own: the points about them are its parent's. */
function childPoints(evidence: FlowEvidence, parent: string): ChecklistPoint[] {
  const onParent = (id: string) => notApplicable(id, `judged on ${parent}`);
  return [
    ...["1", "2", "3"].map(onParent),
    refusesPoint(evidence, true),
    ...["5", "6", "7", "8", "9", "10", "11", "12"].map(onParent),
    stepsPoint(evidence),
    toolsPoint(evidence, true),
    transitionsPoint(evidence),
  ];
}

/** Not judged: every point says which scenarios did not run. */
function unjudged(points: ChecklistPoint[], why: string): ChecklistPoint[] {
  return points.map((point) =>
    point.status === "not applicable" ? point : { id: point.id, status: "not judged", detail: why },
  );
}

/** The checklist of every registered flow and child flow, from what `results` holds. */
export function runChecklist({ results, flows, scenarioFiles, strict }: ChecklistInput): FlowChecklist[] {
  const coverage = results.coverage ?? {};
  return flows.flatMap((flow) => {
    const files = scenarioFiles[flow.name] ?? [];
    const ran = files.filter((file) =>
      results.conversations.some((conversation) => conversation.ran && conversation.file === file),
    );
    const judged = ran.length === files.length;
    const why = `${files.length - ran.length} of its ${files.length} scenario files did not run here: run them all (npm run test:flows)`;
    const head = { scenarios: { total: files.length, ran: ran.length }, judged, strict: strict(flow) };
    const points = rootPoints(evidenceOf(flow, results.conversations, coverage), results);
    const children = flowFamily(flow)
      .slice(1)
      .map((child): FlowChecklist => {
        const childPointsOf = childPoints(evidenceOf(child, [], coverage), flow.name);
        return {
          flow: child.name,
          childOf: flow.name,
          ...head,
          points: judged ? childPointsOf : unjudged(childPointsOf, why),
        };
      });
    return [{ flow: flow.name, ...head, points: judged ? points : unjudged(points, why) }, ...children];
  });
}
