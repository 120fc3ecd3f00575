import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { splitSpecs } from "../../src/cli/split-specs.ts";
import { tempDir } from "../support/temp-path.ts";

/** Spec files of the given sizes in bytes, in a folder of their own, named a, b, c, … in order. */
async function specsOfSizes(sizes: readonly number[]): Promise<{ files: string[]; remove: () => void }> {
  const dir = await tempDir("split-specs");
  const files = sizes.map((size, index) => {
    const file = join(dir.path, `${String.fromCharCode(97 + index)}.spec.ts`);
    writeFileSync(file, "x".repeat(size));
    return file;
  });
  return { files, remove: dir.remove };
}

test("the spec files are dealt into lists of about equal size, largest first to the lightest, each in the run's order, the lightest list first", async (t) => {
  const sizes = [900, 100, 500, 400, 300, 200, 50];
  const { files, remove } = await specsOfSizes(sizes);
  t.after(remove);

  const parts = splitSpecs(files, 2);

  // Largest first, each to the lighter list (the earlier on a tie): 900 | 500, 400 | 300 to 900's,
  // 200 and 100 to the other, 50 to 900's on the tie: 1200 bytes against 1250.
  const [a, b, c, d, e, f, g] = files;
  assert.deepEqual(parts, [
    [b, c, d, f],
    [a, e, g],
  ]);
});

test("one part, or one file, is the run's list as it is; more parts than files leave no list empty", async (t) => {
  const { files, remove } = await specsOfSizes([10, 20, 30]);
  t.after(remove);

  assert.deepEqual(splitSpecs(files, 1), [files]);
  assert.deepEqual(splitSpecs(files.slice(0, 1), 4), [files.slice(0, 1)]);
  const many = splitSpecs(files, 5);
  assert.equal(many.length, 3);
  assert.deepEqual(many, [[files[0]], [files[1]], [files[2]]]);
});
