import { createRequire } from "node:module";
import { FlowcheckError } from "../errors.ts";

// The drivers are optional peer dependencies: a project that only drives a target of its own
// installs neither, so each is looked for when a store of its kind opens, never at import.
const require = createRequire(import.meta.url);

/** Each store's driver package, and the store and setting that need it. */
const DRIVERS = {
  "better-sqlite3": { store: "The SQLite session store", setting: "SESSION_STORE=SQLITE, the default" },
  mongodb: { store: "The MongoDB session store", setting: "SESSION_STORE=MONGO" },
} as const;

export type StoreDriver = keyof typeof DRIVERS;

/** The path of the driver's entry module; `store_driver_missing`, saying how to install it, when it is not installed. */
export function storeDriverPath(driver: StoreDriver): string {
  try {
    return require.resolve(driver);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    const { store, setting } = DRIVERS[driver];
    throw new FlowcheckError(
      "store_driver_missing",
      `${store} (${setting}) needs the ${driver} package, which is not installed in this project. ` +
        `Install it with npm i -D ${driver}, or choose another store with SESSION_STORE.`,
      { cause: error },
    );
  }
}

/** The driver's module, loaded synchronously on first use; `store_driver_missing` when it is not installed. */
export function requireStoreDriver<Driver>(driver: StoreDriver): Driver {
  return require(storeDriverPath(driver)) as Driver;
}
