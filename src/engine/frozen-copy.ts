import type { DeepReadonly } from "./flow-types.ts";

/**
 * A deep copy of a step's state, frozen all the way down: another step reads it through `stateOf`,
 * and a write to the copy throws (modules run in strict mode) instead of reaching the session.
 */
export function frozenCopy<T>(value: T): DeepReadonly<T> {
  return deepFreeze(structuredClone(value)) as DeepReadonly<T>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
