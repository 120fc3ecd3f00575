import { FlowcheckError } from "../../errors.ts";
import { CASSETTE_VERSION, type CassetteCall, type CassetteFile } from "./cassette-file.ts";

/** The versions `migrateCassette` reads. */
const READ = [1, CASSETTE_VERSION];

/** v1 named an engine call's place `Flow/Step`; flow names hold no `/`, so the first one splits it. */
function engineWhere(where: unknown): CassetteCall["where"] {
  const slash = typeof where === "string" ? where.indexOf("/") : -1;
  if (typeof where !== "string" || slash < 0) return undefined;
  return { flow: where.slice(0, slash), step: where.slice(slash + 1) };
}

/**
 * A cassette file's parsed JSON (read from `path`) in the version this flowcheck writes: version 1,
 * written before started apps' model calls were taped, had only engine model calls, their `where` a
 * `Flow/Step` text. Migrated in memory only: a replay leaves the file as it was, a recording writes
 * the current version.
 */
export function migrateCassette(json: unknown, path: string): CassetteFile {
  const file = json as { cassette?: unknown; calls?: unknown } | null;
  if (file === null || typeof file !== "object" || file.cassette === undefined || !Array.isArray(file.calls)) {
    throw new FlowcheckError(
      "cassette_missing",
      `${path} is not a flowcheck cassette (no "cassette" version and "calls"); delete it and record it again.`,
    );
  }
  if (!READ.includes(file.cassette as number)) {
    throw new FlowcheckError(
      "cassette_mismatch",
      `${path} is cassette version ${JSON.stringify(file.cassette)}, and this flowcheck reads versions ` +
        `${READ.join(" and ")}: play it with the flowcheck that recorded it, or record it again with FLOW_MODEL=record.`,
    );
  }
  if (file.cassette === CASSETTE_VERSION) return file as CassetteFile;
  const calls = (file.calls as (Omit<CassetteCall, "where"> & { where?: unknown })[]).map(
    ({ where, ...call }): CassetteCall => (call.kind === "model" ? { ...call, where: engineWhere(where) } : call),
  );
  return { ...(file as Omit<CassetteFile, "cassette" | "calls">), cassette: CASSETTE_VERSION, calls };
}
