// Another commit's tree beside this one, for a phase that times a command in both: a clone of this
// repository at that commit, sharing its objects. A clone rather than a worktree, so that a bench
// stopped halfway leaves nothing registered in this repository; a checkout rather than an archive,
// so that what reads git (Biome's ignore files, the specs that ask git) finds it there too.
import { execFileSync } from "node:child_process";
import { realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";

/** `ref`'s files in `into`, a new folder; or why not, when there is no such commit. */
export function cloneCommit(
  root: string,
  ref: string,
  into: string,
): { tree: string; commit: string } | { missing: string } {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  let commit: string;
  try {
    commit = git(root, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  } catch {
    return { missing: `there is no commit ${ref}` };
  }
  git(root, "clone", "--quiet", "--shared", "--no-checkout", root, into);
  git(into, "checkout", "--quiet", "--detach", commit);
  return { tree: into, commit: git(root, "rev-parse", "--short", commit) };
}

/** `tree/node_modules` as a link to this tree's own install (`root/node_modules`, followed to where it is). */
export function linkNodeModules(root: string, tree: string, folder = "."): void {
  symlinkSync(realpathSync(join(root, folder, "node_modules")), join(tree, folder, "node_modules"));
}
