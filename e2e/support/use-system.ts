import { type Account, type Mode, startSystem, type SystemUnderTest } from './system-under-test';

export interface UseSystemOptions {
  /** How many accounts to create once the system is up, one after another (default 1). */
  readonly accounts?: number;
  /** Settings added to every service, as `startSystem` takes them. */
  readonly env?: Record<string, string>;
}

export interface LiveSystem {
  readonly system: SystemUnderTest;
  /** The first of `accounts` (reading it throws when there are none). */
  readonly account: Account;
  readonly accounts: readonly Account[];
}

/**
 * The lifecycle every e2e suite repeats, written once: starts the system and makes its accounts
 * in a `beforeAll`, closes the system in an `afterAll`. Jest collects a suite's tests before any
 * `beforeAll` runs, so what this returns are live views, made now and read later: each property
 * read goes to the system or account started for the suite (reading one earlier throws). So a
 * suite keeps its names, `const { system, accounts: [me, them] } = useSystem(mode, { accounts: 2 })`,
 * and its tests read `system.url` and `me.token` as before. A suite with more setup adds its own
 * `beforeAll` after this call (Jest runs them in the order declared); one that must stop something
 * before the system closes keeps its own lifecycle (afterAll hooks also run in declared order).
 */
export function useSystem(mode: Mode, options: UseSystemOptions = {}): LiveSystem {
  let started: SystemUnderTest | undefined;
  const made: Account[] = [];
  beforeAll(async () => {
    started = await startSystem(mode, { env: options.env });
    for (let index = 0; index < (options.accounts ?? 1); index++) made.push(await started.createAccount());
  });
  afterAll(async () => {
    await started?.close();
  });
  const accounts = Array.from({ length: options.accounts ?? 1 }, (_, index) => liveView(() => made[index], `account ${index}`));
  return { system: liveView(() => started, 'the system'), account: liveView(() => made[0], 'account 0'), accounts };
}

/** An object that forwards every read to what `current` answers at the time of the read. */
function liveView<T extends object>(current: () => T | undefined, name: string): T {
  const target = (): T => {
    const value = current();
    if (!value) throw new Error(`${name} is read before the suite's beforeAll made it (or was not asked for)`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
