import { storeDriverPath } from "../store-driver.ts";
import type { MongoSessionStore } from "./mongo-session-store.ts";

/**
 * The MongoDB store at `url`, its module (and the driver) loaded only now: the driver takes about
 * 0.25 s to load, which a SQLite run never needs, and a project without it must still import flowcheck.
 */
export async function openMongoSessionStore(url: string, database: string): Promise<MongoSessionStore> {
  storeDriverPath("mongodb");
  const { MongoSessionStore } = await import("./mongo-session-store.ts");
  return MongoSessionStore.open(url, database);
}
