import assert from "node:assert/strict";
import { test } from "node:test";
import { agreement, cohensKappa, type VerdictPair } from "../../../src/testing/judge/agreement.ts";
import { bestMinScore } from "../../../src/testing/judge/best-min-score.ts";

function pairs(counts: { tp: number; fp: number; fn: number; tn: number }): VerdictPair[] {
  const many = (n: number, pair: VerdictPair) => Array.from({ length: n }, () => pair);
  return [
    ...many(counts.tp, { human: "pass", judgePassed: true }),
    ...many(counts.fp, { human: "fail", judgePassed: true }),
    ...many(counts.fn, { human: "pass", judgePassed: false }),
    ...many(counts.tn, { human: "fail", judgePassed: false }),
  ];
}

test("Cohen's κ is (po − pe) / (1 − pe), pe from the judge's and the people's pass rates", () => {
  // 20 labels: 8 both pass, 2 judge only, 4 people only, 6 both fail.
  // po = 14/20 = 0.7; judge passes 10/20, people 12/20; pe = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5 = 0.4.
  const table = pairs({ tp: 8, fp: 2, fn: 4, tn: 6 });
  assert.equal(agreement(table), 0.7);
  assert.ok(Math.abs(cohensKappa(table)! - 0.4) < 1e-12);
});

test("κ is not defined when judge and people give every label one verdict, nor for no label", () => {
  assert.equal(cohensKappa(pairs({ tp: 5, fp: 0, fn: 0, tn: 0 })), null);
  assert.equal(cohensKappa(pairs({ tp: 0, fp: 0, fn: 0, tn: 3 })), null);
  assert.equal(cohensKappa([]), null);
  assert.equal(agreement([]), 0);
});

test("a judge that agrees no better than chance has κ 0, one that always disagrees a negative κ", () => {
  // People pass all; the judge passes half: po = pe = 0.5.
  assert.equal(cohensKappa(pairs({ tp: 2, fp: 0, fn: 2, tn: 0 })), 0);
  assert.equal(cohensKappa(pairs({ tp: 0, fp: 2, fn: 2, tn: 0 })), -1);
});

test("the best minScore is the candidate that agrees best, re-grading each label as the majority of its samples", () => {
  const labels = [
    {
      human: "pass" as const,
      samples: [
        { pass: true, score: 0.7 },
        { pass: true, score: 0.72 },
        { pass: true, score: 0.9 },
      ],
    },
    { human: "fail" as const, samples: [{ pass: true, score: 0.6 }] },
    { human: "pass" as const, samples: [{ pass: true, score: 0.8 }] },
  ];
  // At 0.75 the first label's majority (0.7, 0.72) fails it: 2/3. At 0.72 its 0.72 and 0.9 pass it, 0.6 still fails: 3/3.
  // 0.7 agrees as well, but 0.72 is nearer 0.75.
  assert.deepEqual(bestMinScore(labels, 0.75), { minScore: 0.72, agreement: 1 });
});

test("of thresholds that agree alike, the one nearest the current minScore is kept", () => {
  const labels = [{ human: "pass" as const, samples: [{ pass: true, score: 0.9 }] }];
  assert.deepEqual(bestMinScore(labels, 0.75), { minScore: 0.75, agreement: 1 });
  // A sample that does not pass never passes, whatever the threshold.
  const refused = [{ human: "pass" as const, samples: [{ pass: false, score: 0.95 }] }];
  assert.deepEqual(bestMinScore(refused, 0.75), { minScore: 0.75, agreement: 0 });
});
