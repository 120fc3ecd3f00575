/**
 * A session as a backend keeps it, read back but not yet checked: the head, and what the turns
 * appended (memory entries with their namespace, the execution log), each as parsed JSON.
 */
export interface StoredSession {
  head: unknown;
  memory: { namespace: string; entry: unknown }[];
  execution: unknown[];
  /** What the backend found broken while reading (e.g. a turn's row that is not JSON). */
  damage?: string;
}
