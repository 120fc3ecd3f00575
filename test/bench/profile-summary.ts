// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time, the
// functions with the most inclusive time (on the stack at all), and self time by source file.
// Usage: tsx test/bench/profile-summary.ts <file.cpuprofile> [top=25] [--match=<regexp>]
// --match keeps only the samples with a matching function or file on their stack (e.g. the server's
// side of a turn: --match=FlowEngine), and reports shares of those samples alone.
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = resolve(import.meta.dirname, "..", "..");

function where(frame: CallFrame): string {
  if (!frame.url) return "(native)";
  const path = frame.url.startsWith("file://") ? relative(ROOT, new URL(frame.url).pathname) : frame.url;
  return `${path}:${frame.lineNumber + 1}`;
}

function fileOf(frame: CallFrame): string {
  if (!frame.url) return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  const path = frame.url.startsWith("file://") ? relative(ROOT, new URL(frame.url).pathname) : frame.url;
  // Dependencies by package, so ajv or better-sqlite3 show as one line each.
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return dependency ? `node_modules/${dependency[1]}` : path;
}

function label(frame: CallFrame): string {
  return `${frame.functionName || "(anonymous)"} ${where(frame)}`;
}

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith("--") && !/^\d+$/.test(arg));
if (!file) {
  console.error("usage: tsx test/bench/profile-summary.ts <file.cpuprofile> [top] [--match=<regexp>]");
  process.exit(2);
}
const top = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 25);
const matchSource = args.find((arg) => arg.startsWith("--match="))?.slice("--match=".length);
const match = matchSource === undefined ? undefined : new RegExp(matchSource);

const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
let idle = 0;
profile.samples.forEach((id, index) => {
  // A sample's time is the delta to the next sample; the last one gets the profile's end.
  const micros = profile.timeDeltas[index + 1] ?? 0;
  const node = byId.get(id)!;
  const stack: CallFrame[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
  if (match && !stack.some((frame) => match.test(frame.functionName) || match.test(frame.url))) return;
  total += micros;
  if (node.callFrame.functionName === "(idle)") idle += micros;
  const key = label(node.callFrame);
  self.set(key, (self.get(key) ?? 0) + micros);
  const fileKey = fileOf(node.callFrame);
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + micros);
  for (const key of new Set(stack.map(label))) inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
});

const busy = total - idle;
const percent = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(6)} ms`;
const print = (title: string, entries: Map<string, number>, skip: (key: string) => boolean = () => false) => {
  console.log(`\n${title}`);
  [...entries]
    .filter(([key]) => !skip(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([key, micros]) => console.log(`${ms(micros)} ${percent(micros)}  ${key}`));
};

console.log(
  `${file}: ${(total / 1000).toFixed(0)} ms sampled${match ? ` (stacks matching ${match})` : ""}, ${(idle / 1000).toFixed(0)} ms idle; shares are of the ${(busy / 1000).toFixed(0)} ms busy`,
);
print("self time by function", self, (key) => key.startsWith("(idle)"));
print("self time by file", byFile, (key) => key === "(idle)");
// The roots are on every stack; they say nothing.
print("inclusive time by function", inclusive, (key) => /^\((root|idle|program|garbage collector)\)/.test(key));
