// node:test's options that may leave some of a run's tests unrun, read in one place. Plain
// JavaScript: flowcheck.mjs reads them before tsx is registered, the suites once it is.

const FILTER = /^--test-(name-pattern|skip-pattern|only)\b/;

/**
 * Whether `args` hold a name filter or `--test-only`, e.g. `["--test-name-pattern=^a"]`.
 * @param {readonly string[]} args @returns {boolean}
 */
export function hasTestFilter(args) {
  return args.some((arg) => FILTER.test(arg));
}

/**
 * The filters of `args` as node's own flags: each with the value it takes from the next argument.
 * @param {readonly string[]} args @returns {string[]}
 */
export function testFilterFlags(args) {
  return args.flatMap((arg, index) =>
    FILTER.test(arg) ? (arg.includes("=") || arg === "--test-only" ? [arg] : [arg, args[index + 1] ?? ""]) : [],
  );
}
