import { MongoClient, MongoServerError, type Collection } from "mongodb";
import { FlowcheckError } from "../../errors.ts";
import type { KeptAnswer, TurnWrite } from "../../engine/session-document.ts";
import { SessionStoreBase } from "../session-store-base.ts";
import type { StoredSession } from "../stored-session.ts";
import { mongoFailure } from "./mongo-failure.ts";

/** A keyed turn's answer, as the session's record keeps it; `id` is the scope and key the answer is found by. */
interface AnswerRecord {
  id: string;
  request: string;
  answer: unknown;
}

/**
 * One MongoDB document per session: the head, the turn count, the appended entries, and the
 * answers of its keyed turns. The answers live in the session's document, not a collection of
 * their own, because one document's update is the only write a standalone server makes atomic:
 * an answer must be stored by the very write that stores its turn. A record without keyed turns
 * has no `answers` at all, which the sparse unique index on `answers.id` passes over.
 */
interface SessionRecord {
  _id: string;
  turns: number;
  head: unknown;
  messages: { namespace: string; entry: unknown }[];
  execution: unknown[];
  answers?: AnswerRecord[];
}

const DUPLICATE_KEY = 11000;

/** Session ids and keys hold no space, so the pair is one string with a space between. */
function answerId(scope: string, key: string): string {
  return `${scope} ${key}`;
}

function answerRecord(write: TurnWrite): AnswerRecord | undefined {
  const { answer } = write;
  return answer && { id: answerId(answer.scope, answer.key), request: answer.request, answer: answer.answer };
}

function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

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
    const store = new MongoSessionStore(client, database, url);
    // A session is found by _id, which MongoDB indexes on its own; a kept answer by its scope and key,
    // which no two sessions may share.
    await store.#sessions.createIndex({ "answers.id": 1 }, { unique: true, sparse: true, name: "answers_id" });
    return store;
  }

  protected async read(id: string): Promise<StoredSession | undefined> {
    const record = await this.#sessions.findOne({ _id: id }, { projection: { answers: 0 } });
    return record ? { head: record.head, memory: record.messages, execution: record.execution } : undefined;
  }

  protected async readAnswer(scope: string, key: string): Promise<KeptAnswer | undefined> {
    const id = answerId(scope, key);
    const record = await this.#sessions.findOne(
      { "answers.id": id },
      { projection: { _id: 0, answers: { $elemMatch: { id } } } },
    );
    const kept = record?.answers?.[0];
    return kept && { scope, key, request: kept.request, answer: kept.answer };
  }

  protected async readHead(id: string): Promise<unknown> {
    const record = await this.#sessions.findOne({ _id: id }, { projection: { head: 1 } });
    return record ? record.head : undefined;
  }

  protected async insert(write: TurnWrite): Promise<boolean> {
    const answer = answerRecord(write);
    try {
      await this.#sessions.insertOne({
        _id: write.head.id,
        turns: write.head.turns,
        head: write.head,
        messages: write.memory,
        execution: write.execution,
        ...(answer ? { answers: [answer] } : {}),
      });
      return true;
    } catch (error) {
      // The id, or the scope and key of the answer (another session kept it first).
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  protected async apply(write: TurnWrite): Promise<boolean> {
    const answer = answerRecord(write);
    try {
      const result = await this.#sessions.updateOne(
        // The unique index keeps two sessions from sharing an answer's id; within one, this does.
        answer
          ? { _id: write.head.id, turns: write.baseTurns, "answers.id": { $ne: answer.id } }
          : { _id: write.head.id, turns: write.baseTurns },
        {
          $set: { turns: write.head.turns, head: write.head },
          $push: {
            messages: { $each: write.memory },
            execution: { $each: write.execution },
            ...(answer ? { answers: answer } : {}),
          },
        },
      );
      return result.matchedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
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
