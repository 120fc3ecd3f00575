import type { ConversationResult, RunResults, TurnResult } from "./run-results.ts";

// XML 1.0 allows no control character but tab, newline and carriage return, not even as a
// character reference, nor a lone surrogate: those are shown as \uXXXX text instead.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function shown(text: string): string {
  return text.replace(NOT_XML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `text` as XML character data. */
export function xmlText(text: string): string {
  return shown(text).replace(/[&<>]/g, (char) => ENTITIES[char]!);
}

/** `text` as an XML attribute value between double quotes, line breaks kept as references. */
export function xmlAttribute(text: string): string {
  return shown(text)
    .replace(/[&<>"']/g, (char) => ENTITIES[char]!)
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}

interface Case {
  name: string;
  seconds: number;
  failure?: string;
  skipped?: string;
}

function element(name: string, attributes: Record<string, string | number>, body?: string): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${xmlAttribute(String(value))}"`)
    .join("");
  return body === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`;
}

function turnCases(turn: TurnResult): Case[] {
  const name = `${turn.number}. ${turn.label}`;
  const seconds = (turn.millis?.http ?? 0) / 1000;
  const cases: Case[] = [
    turn.outcome === "failed"
      ? { name, seconds, failure: turn.failure ?? "failed" }
      : turn.outcome === "skipped"
        ? { name, seconds, skipped: turn.skipReason ?? "" }
        : { name, seconds },
  ];
  const judge = turn.judge;
  if (judge) {
    const judged = `${name} · judge`;
    const why = judge.message ?? judge.reason ?? "";
    cases.push(
      judge.outcome === "failed"
        ? { name: judged, seconds: 0, failure: why }
        : judge.outcome === "skipped"
          ? { name: judged, seconds: 0, skipped: why }
          : { name: judged, seconds: 0 },
    );
  }
  return cases;
}

/** The conversation's test cases, named as node:test names its tests. */
function casesOf(conversation: ConversationResult): Case[] {
  if (conversation.turns.length === 0) {
    const name = `${conversation.file} is a valid scenario`;
    return [
      conversation.outcome === "failed"
        ? { name, seconds: 0, failure: conversation.reason ?? "failed" }
        : { name, seconds: 0, skipped: conversation.reason ?? "" },
    ];
  }
  const final = conversation.final;
  const finalCase: Case = !final
    ? { name: "final state", seconds: 0, skipped: conversation.reason ?? "not reached" }
    : final.outcome === "failed"
      ? { name: "final state", seconds: 0, failure: final.failure ?? "failed" }
      : final.outcome === "skipped"
        ? { name: "final state", seconds: 0, skipped: final.skipReason ?? "" }
        : { name: "final state", seconds: 0 };
  // A conversation that failed before its first turn (its target did not start) fails a case of its own, as its first test does.
  const start: Case[] =
    !conversation.ran && conversation.outcome === "failed"
      ? [{ name: "the conversation starts", seconds: 0, failure: conversation.reason ?? "failed" }]
      : [];
  return [...start, ...conversation.turns.flatMap(turnCases), finalCase];
}

function caseXml(suite: string, file: string, each: Case): string {
  const attributes = { classname: suite, name: each.name, time: each.seconds.toFixed(3), file };
  if (each.failure !== undefined) {
    const first = each.failure.split("\n")[0] ?? "";
    return `    ${element("testcase", attributes, `\n      ${element("failure", { message: first, type: "scenario_failed" }, xmlText(each.failure))}\n    `)}`;
  }
  if (each.skipped !== undefined)
    return `    ${element("testcase", attributes, element("skipped", { message: each.skipped }))}`;
  return `    ${element("testcase", attributes)}`;
}

/** A simulated conversation's user and how it ended, as the suite's properties: a CI page lists them with its cases. */
function propertiesXml(simulation: ConversationResult["simulation"]): string {
  if (!simulation) return "";
  const properties = {
    "simulation.persona": simulation.persona,
    "simulation.goal": simulation.goal,
    "simulation.style": simulation.style,
    "simulation.player": simulation.player,
    "simulation.userTurns": simulation.userTurns,
    "simulation.end": `${simulation.end.reason}: ${simulation.end.detail}`,
  };
  const each = Object.entries(properties).map(([name, value]) => `      ${element("property", { name, value })}`);
  return `    ${element("properties", {}, `\n${each.join("\n")}\n    `)}\n`;
}

function suiteXml(
  name: string,
  file: string,
  cases: Case[],
  seconds: number,
  timestamp?: string,
  simulation?: ConversationResult["simulation"],
): string {
  const counts = {
    tests: cases.length,
    failures: cases.filter((each) => each.failure !== undefined).length,
    errors: 0,
    skipped: cases.filter((each) => each.skipped !== undefined).length,
    time: seconds.toFixed(3),
    ...(timestamp ? { timestamp } : {}),
  };
  return `  ${element("testsuite", { name, file, ...counts }, `\n${propertiesXml(simulation)}${cases.map((each) => caseXml(name, file, each)).join("\n")}\n  `)}`;
}

function suiteName(conversation: ConversationResult): string {
  const repeat = conversation.repeat.of > 1 ? ` (run ${conversation.repeat.index} of ${conversation.repeat.of})` : "";
  return `${conversation.flowName ?? "?"}: ${conversation.name}${repeat}`;
}

/**
 * A run's results as one JUnit XML document: a suite per conversation (each repeat its own), a
 * case per turn (a simulated user's too), per judged turn and for the final state, as node:test
 * names them; a simulated conversation's user and end reason are its suite's properties. A spec
 * file that did not import is a failing case of its own.
 */
export function renderJunit(results: RunResults): string {
  const suites = results.conversations.map((conversation) =>
    suiteXml(
      suiteName(conversation),
      conversation.file,
      casesOf(conversation),
      (conversation.millis ?? 0) / 1000,
      conversation.startedAt,
      conversation.simulation,
    ),
  );
  for (const spec of results.specsNotLoaded)
    suites.push(suiteXml(spec.file, spec.file, [{ name: `${spec.file} loads`, seconds: 0, failure: spec.message }], 0));
  const all = results.conversations.flatMap(casesOf);
  const totals = {
    name: "flowcheck",
    tests: all.length + results.specsNotLoaded.length,
    failures: all.filter((each) => each.failure !== undefined).length + results.specsNotLoaded.length,
    errors: 0,
    skipped: all.filter((each) => each.skipped !== undefined).length,
    time: ((Date.parse(results.endedAt) - Date.parse(results.startedAt)) / 1000 || 0).toFixed(3),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element("testsuites", totals, `\n${suites.join("\n")}\n`)}\n`;
}
