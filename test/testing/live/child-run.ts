// The child-run harness is test/support/child-run.ts. This path stays for the specs in test/cli/,
// which import it from here while the runner and its specs are rewritten; once they import
// ../support/child-run.ts, delete this file.
export * from "../../support/child-run.ts";
