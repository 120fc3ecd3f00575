import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Verdict } from "../checks/check.ts";

/** Verdicts on disk, one file per key, so a rerun over identical answers makes no judge call. */
export class JudgeCache {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The key of everything a verdict depends on: the judge model and the whole prompt. */
  static key(parts: { model: string; system: string; user: string }): string {
    return createHash("sha256")
      .update(JSON.stringify([parts.model, parts.system, parts.user]))
      .digest("hex");
  }

  get(key: string): Verdict | undefined {
    try {
      return JSON.parse(readFileSync(join(this.#dir, `${key}.json`), "utf8")) as Verdict;
    } catch {
      return undefined;
    }
  }

  set(key: string, verdict: Verdict): void {
    mkdirSync(this.#dir, { recursive: true });
    writeFileSync(join(this.#dir, `${key}.json`), `${JSON.stringify(verdict, null, 2)}\n`);
  }
}
