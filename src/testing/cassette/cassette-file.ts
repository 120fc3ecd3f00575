import type { ModelReply } from "../../engine/chat-model.ts";

/** Where our engine made a model call: the flow that ran and its step. */
export interface EngineWhere {
  flow: string;
  step: string;
}

/**
 * Where a started app made a model call: at the seam of its target, over Chat Completions or the
 * Responses API (the seam's `SeamApi`, spelled out: the seam's folder comes after this one).
 */
export interface SeamWhere {
  target: string;
  api: "chat" | "responses";
}

export type CassetteWhere = EngineWhere | SeamWhere;

/** One recorded call, model, judge or simulated user, in the order the scenario made them. */
export interface CassetteCall {
  position: number;
  turn: number;
  label: string;
  kind: "model" | "judge" | "user";
  /** A model call's: our engine's step, or a started app's target and API. */
  where?: CassetteWhere;
  /**
   * A judge call's sample of its verdict, when the run graded each turn more than once
   * (`JUDGE_SAMPLES`); absent for one sample, as on cassettes recorded before samples.
   */
  sample?: { index: number; of: number };
  request: unknown;
  reply: unknown;
}

/** The version this flowcheck writes; `migrateCassette` reads the earlier ones into it. */
export const CASSETTE_VERSION = 2;

export interface CassetteFile {
  cassette: typeof CASSETTE_VERSION;
  scenario: string;
  recordedAt: string;
  calls: CassetteCall[];
}

/** A seam call's reply on tape: the model's reply, with the tokens it used when the provider said. */
export interface TapedReply {
  reply: ModelReply;
  usage?: { input: number; output: number };
}

/** `BasicFlow/NameStep`, `target desk, Responses API`, or the kind of a call with no `where`. */
export function shownWhere(call: Pick<CassetteCall, "kind" | "where">): string {
  const where = call.where;
  if (!where) return call.kind;
  if ("flow" in where) return `${where.flow}/${where.step}`;
  return `target ${where.target}, ${where.api === "chat" ? "Chat Completions" : "Responses API"}`;
}
