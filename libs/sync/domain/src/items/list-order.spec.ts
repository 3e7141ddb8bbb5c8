import fc from 'fast-check';
import { compareIdTexts, compareListOrder } from './list-order';

/** A bigint id as PostgreSQL writes it (`::text`), from 1 to 2^63 - 1. */
const idText = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map((id) => id.toString());
const place = fc.record({ project_id: idText, child_order: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), id: idText });

describe('the task lists\' order, for rows read unordered', () => {
  it('orders ids as numbers, not as text', () => {
    fc.assert(
      fc.property(idText, idText, (a, b) => {
        const numeric = BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
        expect(Math.sign(compareIdTexts(a, b))).toBe(numeric);
      }),
    );
    expect(compareIdTexts('9', '10')).toBeLessThan(0);
  });

  it('sorts as ORDER BY project_id, child_order, id does', () => {
    fc.assert(
      fc.property(fc.array(place, { maxLength: 40 }), (places) => {
        const bySql = [...places].sort((a, b) => {
          const key = (p: typeof a) => [BigInt(p.project_id), BigInt(p.child_order), BigInt(p.id)];
          const [x, y] = [key(a), key(b)];
          for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
          return 0;
        });
        expect([...places].sort(compareListOrder)).toEqual(bySql);
      }),
    );
  });
});
