import { DomainError } from '@doable/shared-errors';
import { infrastructureUnavailable, isInfrastructureFailure } from './infrastructure-failure';

describe('isInfrastructureFailure', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['admin shutdown (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['cannot connect now (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception (class 08)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a connection terminated under a query', new Error('Connection terminated unexpectedly')],
    ['a client the pool gave up on', new Error('Client has encountered a connection error and is not queryable')],
    ['wrapped by TypeORM', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P01' }) })],
    ['a coded outage of another service', new DomainError('SERVICE_UNAVAILABLE')],
  ])('is true for %s', (_what, err) => {
    expect(isInfrastructureFailure(err)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a deadlock (retried, not an outage)', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['a coded refusal', new DomainError('ITEM_NOT_FOUND')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_what, err) => {
    expect(isInfrastructureFailure(err)).toBe(false);
  });

  it('becomes a 503 that tells the client when to retry', () => {
    expect(infrastructureUnavailable(new Error('Connection terminated'))).toMatchObject({ code: 'SERVICE_UNAVAILABLE', extra: { reason: 'infrastructure', retry_after: 1 } });
  });
});
