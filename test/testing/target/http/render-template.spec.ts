import assert from "node:assert/strict";
import { test } from "node:test";
import {
  renderPath,
  renderTemplate,
  type TemplateValues,
} from "../../../../src/testing/target/http/render-template.ts";

const first: TemplateValues = { input: "Ada", session: undefined, messages: [] };
const later: TemplateValues = {
  input: "ada@example.com",
  session: "s-1",
  messages: [
    { role: "user", content: "Ada" },
    { role: "assistant", content: "Thanks, Ada. What is your email?" },
  ],
};

test("placeholders in strings are filled, and the rest of the template is copied as it is", () => {
  const template = { text: "Hello {{input}} from {{ session }}!", n: 3, on: true, none: null, list: ["{{input}}", 1] };
  assert.deepEqual(renderTemplate(template, later, "turn.body"), {
    text: "Hello ada@example.com from s-1!",
    n: 3,
    on: true,
    none: null,
    list: ["ada@example.com", 1],
  });
});

test("the rendered body is a copy: changing it leaves the template and the input as they were", () => {
  const input = { approved: true };
  const template = { resume: "{{input}}", nested: { keep: [1] } };
  const rendered = renderTemplate(template, { ...first, input }, "turn.body") as typeof template & {
    resume: { approved: boolean };
  };
  rendered.resume.approved = false;
  rendered.nested.keep.push(2);
  assert.deepEqual(input, { approved: true });
  assert.deepEqual(template, { resume: "{{input}}", nested: { keep: [1] } });
});

test('a string that is exactly "{{input}}" takes a resume value of any JSON type as it is; inside a string it is its JSON', () => {
  for (const input of [{ approved: true, n: 2 }, [1, "two"], 42, false, null]) {
    assert.deepEqual(renderTemplate({ resume: "{{input}}" }, { ...first, input }, "turn.body"), { resume: input });
  }
  assert.deepEqual(renderTemplate({ text: "got {{input}}" }, { ...first, input: { a: 1 } }, "turn.body"), {
    text: 'got {"a":1}',
  });
});

test('before the server has assigned a session, "{{session}}" is null and {{session}} in a string is empty', () => {
  assert.deepEqual(renderTemplate({ id: "{{session}}", text: "[{{session}}]" }, first, "turn.body"), {
    id: null,
    text: "[]",
  });
  assert.deepEqual(renderTemplate({ id: "{{session}}" }, later, "turn.body"), { id: "s-1" });
});

test("\"{{messages}}\" is the conversation before the turn in OpenAI's shape, this turn's input last", () => {
  assert.deepEqual(renderTemplate({ model: "m", messages: "{{messages}}" }, later, "turn.body"), {
    model: "m",
    messages: [
      { role: "user", content: "Ada" },
      { role: "assistant", content: "Thanks, Ada. What is your email?" },
      { role: "user", content: "ada@example.com" },
    ],
  });
  assert.deepEqual(renderTemplate("{{messages}}", first, "turn.body"), [{ role: "user", content: "Ada" }]);
});

test("an unknown placeholder is config_invalid naming it, its JSON path in the config and the name it likely meant", () => {
  assert.throws(() => renderTemplate({ a: [{ text: "hi {{inptu}}" }] }, first, "targets.shop.turn.body"), {
    code: "config_invalid",
    message:
      "flowcheck.config.json: targets.shop.turn.body.a[0].text holds {{inptu}}, which is not a placeholder; " +
      "did you mean {{input}}? The placeholders are {{input}}, {{session}} and {{messages}} (an environment variable is ${NAME}).",
  });
  assert.throws(() => renderTemplate("{{user}}", first, "turn.body"), {
    code: "config_invalid",
    message: /^flowcheck\.config\.json: turn\.body holds \{\{user\}\}, which is not a placeholder\. The placeholders/,
  });
});

test("{{messages}} inside a longer string is config_invalid: only the whole value can become an array", () => {
  assert.throws(() => renderTemplate({ prompt: "History: {{messages}}" }, later, "turn.body"), {
    code: "config_invalid",
    message:
      /turn\.body\.prompt holds \{\{messages\}\} inside a longer string; write "\{\{messages\}\}" as the whole value/,
  });
});

test("${VAR} references are left for the config loader, untouched", () => {
  assert.deepEqual(renderTemplate({ key: "${API_KEY}" }, first, "turn.body"), { key: "${API_KEY}" });
});

test("a path URL-encodes the session and the input, and is empty where there is no session yet", () => {
  const values = { input: "a b?", session: "team/7 x", messages: [] };
  assert.equal(
    renderPath("/sessions/{{session}}/state?q={{input}}", values, "state.path"),
    "/sessions/team%2F7%20x/state?q=a%20b%3F",
  );
  assert.equal(renderPath("/chat/{{session}}", first, "turn.path"), "/chat/");
});

test("a path with {{messages}} or an unknown placeholder is config_invalid naming where", () => {
  assert.throws(() => renderPath("/chat/{{messages}}", first, "targets.shop.turn.path"), {
    code: "config_invalid",
    message: /targets\.shop\.turn\.path holds \{\{messages\}\}, which has no place in a URL path/,
  });
  assert.throws(() => renderPath("/s/{{sesion}}", first, "targets.shop.state.path"), {
    code: "config_invalid",
    message:
      /targets\.shop\.state\.path holds \{\{sesion\}\}, which is not a placeholder; did you mean \{\{session\}\}\?/,
  });
});
