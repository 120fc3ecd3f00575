/**
 * The type of the values a JSON Schema accepts, read from the schema's literal type: what a tool's
 * arguments are, given its `parameters`. It covers the keywords tool schemas use (`type`, including
 * a list of types, `properties`, `required`, `items`, `enum`, `const`, `anyOf`, `oneOf`, ajv's
 * `nullable`); validation-only keywords (`minLength`, `pattern`, …) do not change the type. A schema
 * whose type cannot be read (not a literal, or a keyword beyond these) gives `unknown`, so the
 * handler has to check the value rather than trust a guess.
 *
 * ajv infers types only from JSON Type Definition schemas (`JTDDataType`), and its `JSONSchemaType<T>`
 * checks a schema against a type written first; a tool's schema is JSON Schema, sent to the model as
 * it is, so the type is read from it instead.
 *
 * @example
 * type Args = FromSchema<{ type: "object"; properties: { name: { type: "string" } }; required: ["name"] }>;
 * // { name: string }
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer U)[] }
      ? FromSchema<U>
      : S extends { readonly oneOf: readonly (infer U)[] }
        ? FromSchema<U>
        : S extends { readonly type: infer T }
          ? OfType<T, S> | (S extends { readonly nullable: true } ? null : never)
          : unknown;

type OfType<T, S> = T extends readonly (infer Each)[]
  ? OfType<Each, S>
  : T extends "string"
    ? string
    : T extends "number" | "integer"
      ? number
      : T extends "boolean"
        ? boolean
        : T extends "null"
          ? null
          : T extends "array"
            ? S extends { readonly items: infer I }
              ? FromSchema<I>[]
              : unknown[]
            : T extends "object"
              ? OfObject<S>
              : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type OfObject<S> = S extends { readonly properties: infer P }
  ? Flat<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K]>;
      }
    >
  : S extends { readonly additionalProperties: false }
    ? {}
    : Record<string, unknown>;

// One object type instead of an intersection, so that error messages show the arguments plainly.
type Flat<T> = T extends infer U ? { [K in keyof U]: U[K] } : never;
