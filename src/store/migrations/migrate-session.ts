import { FlowcheckError } from "../../errors.ts";
import { describeErrors } from "../../engine/schema-validator.ts";
import { SESSION_DOCUMENT_VERSION, type SessionDocument } from "../../engine/session-document.ts";
import type { StoredSession } from "../stored-session.ts";
import { validateSessionDocument } from "./session-document-schema.ts";

type Document = Record<string, unknown>;

/**
 * One function per historical version, turning a document of version N into version N + 1. A
 * change to the document's shape bumps SESSION_DOCUMENT_VERSION, adds its step here, and adds a
 * fixture of the old version under test/fixtures/sessions/.
 */
export const MIGRATIONS: Readonly<Record<number, (document: Document) => Document>> = Object.freeze({
  // Version 2 added the `handoff` memory entry. Version 1 memories hold none and read as they are:
  // the steps entered before the upgrade keep what their models saw, and hand-offs start with the
  // first advance after it. The version still moves, so an older flowcheck refuses such a session.
  1: (document: Document) => document,
});

function unreadable(id: string, where: string, reason: string, flow: unknown): FlowcheckError {
  return new FlowcheckError(
    "session_unreadable",
    `Session "${id}" in ${where} cannot be read by this version (${reason}); ` +
      `it is kept as it is, and a new session is started in its place.`,
    { details: { flow: typeof flow === "string" ? flow : undefined, reason } },
  );
}

/**
 * Assembles a stored session into the document, brings an older version up to the current one,
 * and checks the result. Throws `session_unreadable`, with the flow name when it can be read, for
 * a document of an unknown version or one that is not a session document.
 */
export function migrateSession(stored: StoredSession, id: string, where: string): SessionDocument {
  const head = stored.head !== null && typeof stored.head === "object" ? (stored.head as Document) : {};
  const flow = (head["flow"] as { name?: unknown } | undefined)?.name;
  const memory: Record<string, unknown[]> = {};
  for (const { namespace, entry } of stored.memory) (memory[namespace] ??= []).push(entry);
  let document: Document = { ...head, memory, execution: stored.execution };

  if (stored.damage !== undefined) throw unreadable(id, where, stored.damage, flow);
  let version = document["version"];
  if (!Number.isInteger(version) || (version as number) < 1)
    throw unreadable(id, where, `its version is ${JSON.stringify(version)}`, flow);
  if ((version as number) > SESSION_DOCUMENT_VERSION) {
    throw unreadable(
      id,
      where,
      `it is version ${String(version)}, newer than this version's ${SESSION_DOCUMENT_VERSION}`,
      flow,
    );
  }
  while ((version as number) < SESSION_DOCUMENT_VERSION) {
    const step = MIGRATIONS[version as number];
    if (!step) throw unreadable(id, where, `no migration from version ${String(version)}`, flow);
    document = step(document);
    version = (version as number) + 1;
    document["version"] = version;
  }
  if (!validateSessionDocument(document)) {
    throw unreadable(
      id,
      where,
      `it is not a session document: ${describeErrors(validateSessionDocument.errors)}`,
      flow,
    );
  }
  return document;
}
