import type { startSystem as StartSystem } from './system-under-test';
import { type Account, type Mode, sqlOn, type SystemUnderTest } from './system-view';

export interface UseSystemOptions {
  /** How many accounts to create once the system is up, all at once (default 1). */
  readonly accounts?: number;
  /** Settings added to every service, as `startSystem` takes them: the suite gets a system of its own. */
  readonly env?: Record<string, string>;
  /**
   * A system of the suite's own even without settings: for a suite that stops or restarts
   * services, or otherwise changes what every user of a system would see.
   */
  readonly own?: boolean;
}

/** The worker's shared system of a mode (tools/jest/shared-systems.environment.cjs), when the tier runs in that environment. */
type SharedSystems = (mode: Mode) => Promise<SystemUnderTest>;
/** A new system started by the environment's Node require (the compiled code, loaded once per worker). */
type OwnSystems = (mode: Mode, options: { env?: Record<string, string> }) => Promise<SystemUnderTest>;

interface SystemsEnvironment {
  readonly __doableSharedSystem?: SharedSystems;
  readonly __doableOwnSystem?: OwnSystems;
}
const environment = globalThis as SystemsEnvironment;

/**
 * The run's shared system of a mode, seen from this suite: its answers come from another module
 * registry (the environment's), so they are copied into this one's, and closing it is the run's
 * business, not the suite's.
 */
async function sharedSystem(shared: SharedSystems, mode: Mode): Promise<SystemUnderTest> {
  return localView(await shared(mode), () => Promise.resolve());
}

/**
 * A system of the suite's own, with `env` added to every service's settings. In the e2e tier the
 * environment starts it from the compiled code it has loaded already; elsewhere it is loaded
 * here. The caller closes it.
 */
export async function startOwnSystem(mode: Mode, options: { env?: Record<string, string> } = {}): Promise<SystemUnderTest> {
  const own = environment.__doableOwnSystem;
  if (own) {
    const remote = await own(mode, options);
    return localView(remote, () => remote.close());
  }
  // Required here, not imported above: a suite on the shared system never loads the services' code.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startSystem } = require('./system-under-test') as { startSystem: typeof StartSystem };
  return startSystem(mode, options);
}

/** A system from the environment's module registry, its answers copied into this suite's. */
function localView(remote: SystemUnderTest, close: () => Promise<void>): SystemUnderTest {
  return {
    mode: remote.mode,
    url: remote.url,
    databaseUrl: remote.databaseUrl,
    cluster: remote.cluster,
    natsTransport: remote.natsTransport && { url: remote.natsTransport.url, subjectPrefix: remote.natsTransport.subjectPrefix },
    createAccount: async (options) => ({ ...(await remote.createAccount(options)) }),
    profileExists: (userId) => remote.profileExists(userId),
    createScopedToken: (userId, scopes) => remote.createScopedToken(userId, [...scopes]),
    resetToken: (email) => remote.resetToken(email),
    assignPlan: (target, plan) => remote.assignPlan({ ...target }, plan),
    sql: sqlOn(remote.databaseUrl),
    commandTypes: () => [...remote.commandTypes()],
    storedFiles: async (prefix) => [...(await remote.storedFiles(prefix))],
    close,
  };
}

export interface LiveSystem {
  readonly system: SystemUnderTest;
  /** The first of `accounts` (reading it throws when there are none). */
  readonly account: Account;
  readonly accounts: readonly Account[];
}

/**
 * The lifecycle every e2e suite repeats, written once: finds its system and makes its accounts in
 * a `beforeAll`, and closes a system of its own in an `afterAll`. The system is the run's shared
 * one of the mode (one per mode per Jest worker), unless the suite has settings of its own or
 * asks for its own (`own`); accounts are the unit of isolation, so a suite must not read or
 * change what is not its accounts'. Jest collects a suite's tests before any
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
    const shared = environment.__doableSharedSystem;
    started = shared && options.env === undefined && !options.own ? await sharedSystem(shared, mode) : await startOwnSystem(mode, { env: options.env });
    // At once: each waits for its profile and plan to reach sync (events), and those waits overlap.
    const system = started;
    made.push(...(await Promise.all(Array.from({ length: options.accounts ?? 1 }, () => system.createAccount()))));
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
