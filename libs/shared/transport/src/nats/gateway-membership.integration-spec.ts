import { type GatewayHome, gatewayInstanceSubject, gatewayRegistryBucket, gatewayRegistryKey, homeKey, homeRing } from '@doable/contracts-common';
import { createLogger } from '@doable/shared-logging';
import { TEST_NATS_URL, uniqueSubjectPrefix, waitFor, within } from '@doable/shared-testing';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { EveryGateway } from './every-gateway';
import { GatewayMembership } from './gateway-membership';

const LEASE_MS = 800;
const logger = createLogger('test', 'silent');
const users = Array.from({ length: 300 }, (_, index) => String(1_000 + index));

/** A gateway's registration as GatewayRegistration keeps it: its key, refreshed every quarter lease, with its home. */
class FakeGateway {
  private readonly timer: NodeJS.Timeout;
  readonly heard: string[][] = [];

  constructor(
    private readonly registry: KV,
    readonly instance: string,
    readonly home?: GatewayHome,
  ) {
    this.timer = setInterval(() => void this.put(), LEASE_MS / 4);
  }

  put(): Promise<number> {
    return this.registry.put(gatewayRegistryKey(this.instance), JSON.stringify({ since: new Date().toISOString(), ...(this.home ? { home: this.home } : {}) }));
  }

  /** Answers users-moved-like requests on its own subject, keeping what it heard. */
  async answer(connection: NatsConnection, prefix: string): Promise<void> {
    connection.subscribe(gatewayInstanceSubject(prefix, this.instance, 'test.v1'), {
      callback: (err, message) => {
        if (err) return;
        this.heard.push((message.json<{ userIds: string[] }>()).userIds);
        message.respond('{}');
      },
    });
    await connection.flush();
  }

  /** Stops refreshing: the key lapses a lease later, with no event. */
  silence(): void {
    clearInterval(this.timer);
  }
}

const nginxHome = (name: string): GatewayHome => ({ name, hash: 'nginx' });

/** Each user's home under nginx's ring over these names. */
function homesOf(names: readonly string[]): Map<string, string> {
  const ring = homeRing('nginx', names);
  return new Map(users.map((userId) => [userId, ring.homeOf(homeKey(userId))!]));
}

/** GatewayMembership over a real NATS with JetStream: the views sync and the gateways compute homes from. */
describe('GatewayMembership (real NATS)', () => {
  let connection: NatsConnection;
  const gateways: FakeGateway[] = [];
  const memberships: GatewayMembership[] = [];

  beforeAll(async () => {
    connection = await connect({ servers: TEST_NATS_URL });
  });

  afterAll(async () => {
    for (const gateway of gateways) gateway.silence();
    for (const membership of memberships) membership.stop();
    await connection.drain();
  });

  async function registry(prefix: string): Promise<KV> {
    // Each setup step is bounded with its name: on a loaded CI machine one of this spec's tests
    // once ran into Jest's 90 s timeout, and only a named step can say where it waited.
    return within(new Kvm(connection).create(gatewayRegistryBucket(prefix), { ttl: LEASE_MS, history: 1 }), `the registry bucket ${prefix}`);
  }

  async function gateway(kv: KV, instance: string, home?: GatewayHome): Promise<FakeGateway> {
    const made = new FakeGateway(kv, instance, home);
    gateways.push(made);
    await within(made.put(), `gateway ${instance}'s first registration`);
    return made;
  }

  /** `now`: a clock the test moves (the views' ages), or the real one. */
  async function membership(kv: KV, self?: string, now?: () => number): Promise<GatewayMembership> {
    const opened = await within(GatewayMembership.open(kv, { leaseMs: LEASE_MS, logger, ...(self ? { self } : {}), ...(now ? { now } : {}) }), 'the membership to open (watch and listing)');
    if (!opened) throw new Error('no registry bucket');
    memberships.push(opened);
    return opened;
  }

  /** Which instances a membership tells each user's move to. */
  function told(of: GatewayMembership): Map<string, string[]> {
    const byUser = new Map<string, string[]>(users.map((userId) => [userId, []]));
    for (const [instance, theirs] of of.targets(users)) for (const userId of theirs) byUser.get(userId)!.push(instance);
    return byUser;
  }

  it('is not open while no gateway ever made the registry', async () => {
    const kv = await new Kvm(connection).open(gatewayRegistryBucket(uniqueSubjectPrefix('membership-none')));
    await expect(GatewayMembership.open(kv, { leaseMs: LEASE_MS, logger })).resolves.toBeUndefined();
  });

  it('tells everyone in its first lease, then each user\'s home only, and every gateway without a home', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-targets'));
    const names = ['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080', '10.0.0.4:8080'];
    for (const [index, name] of names.entries()) await gateway(kv, `named-${index}`, nginxHome(name));
    await gateway(kv, 'unnamed');
    let clock = 0;
    const sync = await membership(kv, undefined, () => clock);
    expect(sync.live().sort()).toEqual(['named-0', 'named-1', 'named-2', 'named-3', 'unnamed']);
    // It knows no past yet: everyone hears every move.
    expect(told(sync).get(users[0])!.sort()).toEqual(sync.live().sort());
    clock += LEASE_MS + 1;
    const homes = homesOf(names);
    for (const [userId, instances] of told(sync)) {
      expect(instances.sort()).toEqual([`named-${names.indexOf(homes.get(userId)!)}`, 'unnamed'].sort());
    }
    // The homes are spread: every named gateway is home to some of the 300.
    expect(new Set(homes.values()).size).toBe(4);
  });

  it('a gateway is home only of its users, and only after a lease; a newcomer moves homes, told to old and new for a lease', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-homes'));
    const names = ['gw-a:80', 'gw-b:80', 'gw-c:80'];
    for (const [index, name] of names.entries()) await gateway(kv, `g${index}`, nginxHome(name));
    let clock = 0;
    const sync = await membership(kv, undefined, () => clock);
    const a = await membership(kv, 'g0', () => clock);
    const before = homesOf(names);
    const mine = users.find((userId) => before.get(userId) === names[0])!;
    expect(a.isHome(nginxHome(names[0]), mine)).toBe(false);
    clock += LEASE_MS + 1;
    // Its own next refresh, seen through the watch, shows the watch live.
    await waitFor(() => a.isHome(nginxHome(names[0]), mine), 'gateway a to be home once settled');
    for (const userId of users) expect(a.isHome(nginxHome(names[0]), userId)).toBe(before.get(userId) === names[0]);

    // A fourth gateway joins: some users' home moves to it (nginx moves them only to the newcomer).
    const grown = [...names, 'gw-d:80'];
    await gateway(kv, 'g3', nginxHome(grown[3]));
    const after = homesOf(grown);
    const moved = users.filter((userId) => after.get(userId) !== before.get(userId));
    expect(moved.length).toBeGreaterThan(0);
    await waitFor(() => sync.live().includes('g3') && a.live().includes('g3'), 'both to see the newcomer');
    // Sync tells the old home and the new one while the change is younger than a lease...
    const during = told(sync);
    for (const userId of moved) expect(during.get(userId)!.sort()).toEqual([`g${names.indexOf(before.get(userId)!)}`, 'g3'].sort());
    // ...and gateway a gives up at once the users it lost.
    for (const userId of moved.filter((id) => before.get(id) === names[0])) expect(a.isHome(nginxHome(names[0]), userId)).toBe(false);
    clock += LEASE_MS + 1;
    for (const userId of moved) expect(told(sync).get(userId)).toEqual(['g3']);
    for (const userId of users.filter((id) => !moved.includes(id))) expect(told(sync).get(userId)).toEqual([`g${names.indexOf(before.get(userId)!)}`]);
  });

  it('opened on an empty registry, sees its own gateway register and becomes its users\' home', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-empty'));
    let clock = 0;
    const mine = await membership(kv, 'first', () => clock);
    expect(mine.live()).toEqual([]);
    await gateway(kv, 'first', nginxHome('first:80'));
    await waitFor(() => mine.live().includes('first'), 'its own registration to arrive');
    clock += LEASE_MS + 1;
    await waitFor(() => mine.isHome(nginxHome('first:80'), users[0]), 'it to be home of everyone');
  });

  it('is not fresh after three quarters of a lease with nothing through its watch; a listing of the registry makes it so, with every gateway in it', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-fresh'));
    const first = await gateway(kv, 'first', nginxHome('first:80'));
    let clock = 0;
    const sync = await membership(kv, undefined, () => clock);
    expect(sync.fresh()).toBe(true);
    first.silence();
    clock += LEASE_MS;
    expect(sync.fresh()).toBe(false);
    await gateway(kv, 'second', nginxHome('second:80'));
    await sync.relist();
    expect(sync.fresh()).toBe(true);
    expect(sync.live().sort()).toEqual(['first', 'second']);
  });

  it('drops a gateway whose key lapsed (no event says so) once the registry no longer holds it', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-lapse'));
    await gateway(kv, 'stays', nginxHome('stays:80'));
    const lapsing = await gateway(kv, 'lapses', nginxHome('lapses:80'));
    const sync = await membership(kv);
    expect(sync.live().sort()).toEqual(['lapses', 'stays']);
    let changes = 0;
    sync.onChange(() => changes++);
    lapsing.silence();
    await waitFor(() => !sync.live().includes('lapses'), 'the lapsed gateway to leave the view');
    expect(changes).toBe(1);
    expect(await kv.get(gatewayRegistryKey('lapses'))).toBeNull();
    // A lease on, every user's move goes to the one left.
    await waitFor(() => [...told(sync).values()].every((instances) => instances.length === 1 && instances[0] === 'stays'), 'the change to settle');
  });

  it('a gateway that stops seeing its own refreshes is no one\'s home', async () => {
    const kv = await registry(uniqueSubjectPrefix('membership-self'));
    const self = await gateway(kv, 'me', nginxHome('me:80'));
    const mine = await membership(kv, 'me');
    await waitFor(() => mine.isHome(nginxHome('me:80'), users[0]), 'the only gateway to be home of everyone');
    self.silence();
    await waitFor(() => !mine.isHome(nginxHome('me:80'), users[0]), 'it to stop trusting its view');
    expect(mine.watchLive()).toBe(false);
  });

  it('EveryGateway.askHomes asks each home once with its own users, and a gateway without a home with all', async () => {
    const prefix = uniqueSubjectPrefix('membership-ask');
    const kv = await registry(prefix);
    const names = ['h1:80', 'h2:80', 'h3:80'];
    const named = await Promise.all(names.map((name, index) => gateway(kv, `h${index}`, nginxHome(name))));
    const unnamed = await gateway(kv, 'old');
    for (const each of [...named, unnamed]) await each.answer(connection, prefix);
    const everyGateway = new EveryGateway({ url: TEST_NATS_URL, subjectPrefix: prefix, connectionName: 'test-ask-homes', leaseMs: LEASE_MS, logger });
    const subjectOf = (instance: string) => gatewayInstanceSubject(prefix, instance, 'test.v1');
    const payloadOf = (userIds: readonly string[]) => JSON.stringify({ userIds });
    try {
      // In its first lease it asks everyone; then each home only.
      await waitFor(async () => {
        for (const each of [...named, unnamed]) each.heard.length = 0;
        await everyGateway.askHomes(subjectOf, users, payloadOf);
        return named.every((each) => each.heard[0]?.length !== users.length);
      }, 'askHomes to reach the homes only');
      const homes = homesOf(names);
      for (const [index, each] of named.entries()) {
        expect(each.heard).toHaveLength(1);
        expect(each.heard[0].sort()).toEqual(users.filter((userId) => homes.get(userId) === names[index]).sort());
      }
      expect(unnamed.heard).toEqual([users]);
      // One user: one request to its home, one to the gateway without a home; none to the others.
      for (const each of [...named, unnamed]) each.heard.length = 0;
      await everyGateway.askHomes(subjectOf, [users[7]], payloadOf);
      expect(named.filter((each) => each.heard.length > 0).map((each) => each.instance)).toEqual([`h${names.indexOf(homes.get(users[7])!)}`]);
      expect(unnamed.heard).toEqual([[users[7]]]);
    } finally {
      await everyGateway.close();
    }
  });
});
