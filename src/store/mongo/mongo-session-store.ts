import { MongoClient, MongoServerError, type Collection } from "mongodb";
import { FlowcheckError } from "../../errors.ts";
import type { TurnWrite } from "../../engine/session-document.ts";
import { SessionStoreBase } from "../session-store-base.ts";
import type { StoredSession } from "../stored-session.ts";
import { mongoFailure } from "./mongo-failure.ts";

/** One MongoDB document per session: the head, the turn count, and the appended entries. */
interface SessionRecord {
  _id: string;
  turns: number;
  head: unknown;
  messages: { namespace: string; entry: unknown }[];
  execution: unknown[];
}

const DUPLICATE_KEY = 11000;

/** `mongodb://user:secret@host/db` → `mongodb://user:***@host/db`, for messages and logs. */
export function redactMongoUrl(url: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

/**
 * Sessions in MongoDB, for several server processes sharing them. A turn is one `updateOne` on the
 * session's document, matched on the turn count it was computed from: the head is replaced and the
 * turn's entries pushed in the same atomic write, and a stale turn matches nothing.
 */
/**
 * The server selection timeout to give the driver: the one asked for, else none when the URL sets
 * its own (the driver reads it there, and an option given here would override it), else 5 s.
 */
export function serverSelectionTimeout(url: string, asked: number | undefined): number | undefined {
  if (asked !== undefined) return asked;
  return /[?&]serverSelectionTimeoutMS=/i.test(url) ? undefined : 5000;
}

export class MongoSessionStore extends SessionStoreBase {
  readonly description: string;
  readonly #client: MongoClient;
  readonly #sessions: Collection<SessionRecord>;

  private constructor(client: MongoClient, database: string, url: string) {
    super();
    this.#client = client;
    this.#sessions = client.db(database).collection<SessionRecord>("sessions");
    this.description = `MongoDB ${redactMongoUrl(url)} database ${database}`;
  }

  /**
   * Connects and checks the server answers, so a wrong URL fails at start, naming it. It waits
   * `timeoutMs`, else what the URL's own `serverSelectionTimeoutMS` says, else 5 s.
   */
  static async open(url: string, database: string, options: { timeoutMs?: number } = {}): Promise<MongoSessionStore> {
    const timeout = serverSelectionTimeout(url, options.timeoutMs);
    const client = new MongoClient(url, timeout === undefined ? {} : { serverSelectionTimeoutMS: timeout });
    try {
      await client.connect();
      await client.db(database).command({ ping: 1 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new FlowcheckError(
        "store_unavailable",
        `The MongoDB session store at ${redactMongoUrl(url)} (database ${database}) could not be reached: ${(error as Error).message}. ` +
          "Check MONGO_URL and that the server is running.",
        { cause: error },
      );
    }
    // Every lookup is by _id, which MongoDB indexes on its own: no other index is needed.
    return new MongoSessionStore(client, database, url);
  }

  protected async read(id: string): Promise<StoredSession | undefined> {
    const record = await this.#sessions.findOne({ _id: id });
    return record ? { head: record.head, memory: record.messages, execution: record.execution } : undefined;
  }

  protected async readHead(id: string): Promise<unknown> {
    const record = await this.#sessions.findOne({ _id: id }, { projection: { head: 1 } });
    return record ? record.head : undefined;
  }

  protected async insert(write: TurnWrite): Promise<boolean> {
    try {
      await this.#sessions.insertOne({
        _id: write.head.id,
        turns: write.head.turns,
        head: write.head,
        messages: write.memory,
        execution: write.execution,
      });
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  protected async apply(write: TurnWrite): Promise<boolean> {
    const result = await this.#sessions.updateOne(
      { _id: write.head.id, turns: write.baseTurns },
      {
        $set: { turns: write.head.turns, head: write.head },
        $push: { messages: { $each: write.memory }, execution: { $each: write.execution } },
      },
    );
    return result.matchedCount === 1;
  }

  protected override failureOf(error: unknown): unknown {
    return mongoFailure(error, this.description);
  }

  /** Drops the database: for tests that made one of their own. */
  async dropDatabase(): Promise<void> {
    await this.#sessions.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
