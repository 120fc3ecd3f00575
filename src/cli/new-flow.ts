import { isFlowcheckError } from "../errors.ts";
import { answerHelp } from "./answer-help.ts";
import { planScaffold, writeScaffold } from "./new-flow/scaffold-flow.ts";

if (
  answerHelp(
    `Usage: npm run new:flow -- <FlowName> [--dry-run] [--root <folder>]

Writes a small working flow under src/flows/<name>/ (two steps, tools that refuse bad input with
stay, its scripted model), registers it in src/flows/team-flows.ts, and writes its scenario
(scenarios/<name>-flow.scenario.json) and spec (test/flows/<name>-flow.spec.ts): npm test and
npm run test:flows pass at once. A name is PascalCase ending in Flow (TeaFlow), 38 characters
at most. --dry-run lists the files without writing; --root scaffolds into another checkout.
Nothing is written on error.`,
    process.argv.slice(2),
  )
)
  process.exit(0);

function parse(args: string[]): { name: string | undefined; dryRun: boolean; root: string } {
  let root = ".";
  const rest: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--root") root = args[++index] ?? fail("--root takes a folder.");
    else if (arg.startsWith("--root=")) root = arg.slice("--root=".length);
    else if (arg !== "--dry-run" && arg.startsWith("-"))
      fail(`unknown option ${arg}; the options are --dry-run and --root.`);
    else if (arg !== "--dry-run") rest.push(arg);
  }
  if (rest.length > 1) fail(`one flow name at a time, got ${rest.join(", ")}.`);
  return { name: rest[0], dryRun: args.includes("--dry-run"), root };
}

function fail(message: string): never {
  console.error(`new:flow: ${message}`);
  process.exit(2);
}

const { name, dryRun, root } = parse(process.argv.slice(2));
try {
  const plan = planScaffold(root, name);
  if (!dryRun) writeScaffold(root, plan);
  const verb = dryRun ? "would write" : "wrote";
  console.log(
    `new:flow: ${verb} ${plan.names.flow}:\n${[...plan.created.keys()].map((path) => `  ${path}`).join("\n")}\n  ${plan.registry.path} (registers ${plan.names.camel}Entry)`,
  );
  if (!dryRun) {
    const scenario = `scenarios/${plan.names.kebab}.scenario.json`;
    console.log(`Next: npm run test:flows -- ${scenario}, then npm test.`);
    console.log(`As the flow grows: npm run test:strength -- ${scenario} names what its scenarios would not notice.`);
  }
} catch (error) {
  if (!isFlowcheckError(error)) throw error;
  fail(`${error.message} (${error.code})`);
}
