import fc from 'fast-check';
import { homeKey, homeKeyOfToken, isHomeKey } from './home-key';
import { HOME_HASHES, homeOfUser, homeRing } from './home-ring';

const gateways = (count: number) => Array.from({ length: count }, (_, index) => `10.0.${index >> 8}.${index & 255}:8080`);
const userIds = (count: number, from = 1) => Array.from({ length: count }, (_, index) => String(from + index));

describe.each(HOME_HASHES)('home ring (%s)', (hash) => {
  it('is stable: the same members in any order, built again, give every key the same home', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.ipV4(), { minLength: 1, maxLength: 12 }), fc.array(fc.bigInt({ min: 1n, max: 2n ** 62n }), { minLength: 1, maxLength: 20 }), (addresses, ids) => {
        const names = addresses.map((address) => `${address}:8080`);
        const ring = homeRing(hash, names);
        const shuffled = homeRing(hash, [...names].reverse());
        for (const id of ids) {
          const home = homeOfUser(ring, String(id));
          expect(names).toContain(home);
          expect(homeOfUser(shuffled, String(id))).toBe(home);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('has no home without members', () => {
    expect(homeRing(hash, []).homeOf('0a1b2c3d')).toBeUndefined();
  });

  it('spreads users evenly: with 4 and with 16 members, each holds its share within 35%', () => {
    for (const count of [4, 16]) {
      const names = gateways(count);
      const ring = homeRing(hash, names);
      const held = new Map<string, number>();
      const users = userIds(40_000);
      for (const id of users) {
        const home = homeOfUser(ring, id)!;
        held.set(home, (held.get(home) ?? 0) + 1);
      }
      const share = users.length / count;
      expect(held.size).toBe(count);
      for (const users of held.values()) {
        expect(users).toBeGreaterThan(share * 0.65);
        expect(users).toBeLessThan(share * 1.35);
      }
    }
  });

  it('moves few users when a member joins or leaves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.nat(), (count, pick) => {
        const names = gateways(count + 1);
        const before = homeRing(hash, names.slice(0, count));
        const joined = homeRing(hash, names);
        const leaver = names[pick % count];
        const left = homeRing(hash, names.slice(0, count).filter((name) => name !== leaver));
        const users = userIds(3_000, 1 + pick);
        let movedOnJoin = 0;
        let movedOnLeave = 0;
        for (const id of users) {
          const home = homeOfUser(before, id);
          const afterJoin = homeOfUser(joined, id);
          const afterLeave = homeOfUser(left, id);
          if (afterJoin !== home) movedOnJoin++;
          if (afterLeave !== home) movedOnLeave++;
          expect(afterLeave).not.toBe(leaver);
          if (hash === 'nginx') {
            // nginx's points never change with the others: a user moves only to the newcomer, or off the leaver.
            if (afterJoin !== home) expect(afterJoin).toBe(names[count]);
            if (home !== leaver) expect(afterLeave).toBe(home);
          }
        }
        // nginx moves about 1/(N+1) of the users. Envoy's ring keeps its size near minimum_ring_size,
        // so each member's points shrink as members join: about as many again move between the others.
        const bound = hash === 'nginx' ? 1.6 : 3.2;
        expect(movedOnJoin / users.length).toBeLessThan(Math.min(0.95, bound / (count + 1)));
        expect(movedOnLeave / users.length).toBeLessThan(Math.min(0.95, bound / count));
      }),
      { numRuns: 25 },
    );
  });
});

describe('home keys', () => {
  it('are eight hex digits of the user id alone, the same every time, and differ between users', () => {
    expect(homeKey('42')).toBe(homeKey('42'));
    expect(isHomeKey(homeKey('42'))).toBe(true);
    const keys = new Set(userIds(10_000).map(homeKey));
    expect(keys.size).toBeGreaterThan(9_980);
  });

  it('are read from the last eight digits of a 40-hex API token, and from nothing else', () => {
    expect(homeKeyOfToken(`${'a'.repeat(32)}0123ABCD`)).toBe('0123abcd');
    for (const notToken of ['', 'a'.repeat(39), 'a'.repeat(41), `${'g'.repeat(32)}0123abcd`, 'Bearer '.concat('a'.repeat(40))]) {
      expect(homeKeyOfToken(notToken)).toBeUndefined();
    }
  });
});
