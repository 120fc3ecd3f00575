import { mkdirSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { join, resolve } from "node:path";

/** test/.tmp, git-ignored: databases and artifacts of a test run. */
export const TMP_ROOT = resolve(import.meta.dirname, "..", ".tmp");

/** A fresh folder under test/.tmp and the function that removes it. */
export async function tempDir(prefix: string): Promise<{ path: string; remove: () => void }> {
  mkdirSync(TMP_ROOT, { recursive: true });
  const path = await mkdtemp(join(TMP_ROOT, `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
