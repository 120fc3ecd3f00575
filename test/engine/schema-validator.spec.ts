import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { compileSchema, describeErrors, VALIDATOR_CACHE } from "../../src/engine/schema-validator.ts";

/** Whether ajv compiled it here (its validators carry their schema environment), rather than the cache's code. */
const compiledByAjv = (validate: object): boolean => "schemaEnv" in validate;

/** A schema no other test compiles (a fresh property name), so the cache starts without it; and its cached files. */
function freshSchema() {
  const name = `p${randomUUID().replaceAll("-", "")}`;
  const schema = {
    type: "object",
    properties: { [name]: { type: "string", pattern: "^[a-z]+$" } },
    required: [name],
    additionalProperties: false,
  };
  const files = () =>
    readdirSync(VALIDATOR_CACHE).filter(
      (file) => file.endsWith(".cjs") && readFileSync(join(VALIDATOR_CACHE, file), "utf8").includes(name),
    );
  return {
    name,
    schema,
    files,
    remove: () => files().forEach((file) => rmSync(join(VALIDATOR_CACHE, file), { force: true })),
  };
}

test("a schema compiled once is kept, and the next compile runs the kept code with the same verdicts and errors", (t) => {
  const fresh = freshSchema();
  t.after(fresh.remove);
  const compiled = compileSchema(fresh.schema);
  assert.equal(fresh.files().length, 1, "the compiled validator is written to the cache");
  assert.ok(compiledByAjv(compiled), "the first is ajv's own compile");
  const kept = compileSchema(fresh.schema);
  assert.ok(!compiledByAjv(kept), "the second is the kept standalone code");

  for (const validate of [compiled, kept]) {
    assert.equal(validate({ [fresh.name]: "abc" }), true);
    assert.equal(validate({ [fresh.name]: "ABC", extra: 1 }), false);
    assert.equal(
      describeErrors(validate.errors),
      `/ has unknown property "extra"; /${fresh.name} must match pattern "^[a-z]+$"`,
    );
  }
});

test("a kept validator that does not run is compiled again and replaced", (t) => {
  const fresh = freshSchema();
  t.after(fresh.remove);
  compileSchema(fresh.schema);
  const [file] = fresh.files();
  writeFileSync(join(VALIDATOR_CACHE, file!), `// ${fresh.name}\nthrow new Error("corrupt on purpose");\n`);
  const validate = compileSchema(fresh.schema);
  assert.ok(compiledByAjv(validate), "compiled by ajv, not read from the broken file");
  assert.equal(validate({ [fresh.name]: 5 }), false);
  assert.doesNotMatch(readFileSync(join(VALIDATOR_CACHE, file!), "utf8"), /corrupt on purpose/);
});

test("a schema ajv refuses in strict mode still throws, and nothing is kept for it", (t) => {
  const fresh = freshSchema();
  t.after(fresh.remove);
  assert.throws(
    () => compileSchema({ ...fresh.schema, properties: { [fresh.name]: { type: "string", minimum: "x" } } }),
    /minimum/,
  );
  assert.deepEqual(fresh.files(), []);
});

test("the 2020-12 dialect keeps its errors' offending value and schema when read from the cache", (t) => {
  const fresh = freshSchema();
  t.after(fresh.remove);
  const schema = { ...fresh.schema, $schema: "https://json-schema.org/draft/2020-12/schema" };
  compileSchema(schema, "2020-12");
  const kept = compileSchema(schema, "2020-12");
  assert.ok(!compiledByAjv(kept));
  assert.equal(kept({ [fresh.name]: "ABC" }), false);
  const [error] = kept.errors ?? [];
  assert.equal(error?.data, "ABC");
  assert.deepEqual(error?.parentSchema, { type: "string", pattern: "^[a-z]+$" });
});
