import { AT_THE_LIMIT, LEASE_SECONDS, mixPrice, predictedPolls, priceOf, type Prices, size, TARGET_UTILISATION } from './capacity';

const prices: Prices = {
  hit: priceOf({ gateway: 0.3, 'nats-server': 0.01 }),
  writeAndFetch: priceOf({ gateway: 2, sync: 4, rest: 0.1, 'nats-server': 0.5, postgres: 3, 'some other group': 99 }),
  fullSync: priceOf({ gateway: 40, sync: 150, postgres: 60 }),
};

describe('capacity model', () => {
  it('prices only the parts it knows, zero for the missing ones', () => {
    expect(prices.writeAndFetch).toEqual({ gateway: 2, sync: 4, rest: 0.1, 'other services': 0, 'nats-server': 0.5, postgres: 3 });
  });

  it('prices a mix: a write share of write-and-fetch pairs, the rest of the polls answered by the gateway', () => {
    const mix = mixPrice(prices, 0.1);
    // 0.1 pairs + 0.8 hits per request
    expect(mix.gateway).toBeCloseTo(0.1 * 2 + 0.8 * 0.3);
    expect(mix.sync).toBeCloseTo(0.4);
    expect(mixPrice(prices, 0).gateway).toBeCloseTo(0.3);
  });

  it('sizes cores from the documented limit, linearly in users, rounded up at the target utilisation', () => {
    const thousand = size(prices, 1_000);
    expect(thousand.syncsPerSecond).toBeCloseTo(1_000 / 0.9);
    expect(thousand.writesPerSecond).toBeCloseTo(thousand.syncsPerSecond * AT_THE_LIMIT.writeShare);
    expect(thousand.fullSyncsPerSecond).toBeCloseTo((1_000 * 3) / 86_400);
    const busySync = (thousand.syncsPerSecond * 0.4 + thousand.fullSyncsPerSecond * 150) / 1000;
    expect(thousand.busyCores.sync).toBeCloseTo(busySync);
    expect(thousand.cores.sync).toBe(Math.ceil(busySync / TARGET_UTILISATION));
    const million = size(prices, 1_000_000);
    expect(million.busyCores.sync / thousand.busyCores.sync).toBeCloseTo(1_000);
  });

  it('counts the users-moved barrier as a request and a reply per write with home gateways, per write per gateway before them', () => {
    const sized = size(prices, 100_000);
    expect(sized.barrierMessagesPerSecond).toBeCloseTo(sized.writesPerSecond * 2);
    expect(sized.everyGatewayBarrierMessagesPerSecond).toBeCloseTo(sized.writesPerSecond * sized.gateways * 2);
    expect(sized.gateways).toBe(sized.cores.gateway);
    // Ten times the users: ten times the barrier with homes, a hundred times without.
    const tenTimes = size(prices, 1_000_000);
    expect(tenTimes.barrierMessagesPerSecond / sized.barrierMessagesPerSecond).toBeCloseTo(10);
    expect(tenTimes.everyGatewayBarrierMessagesPerSecond / sized.everyGatewayBarrierMessagesPerSecond).toBeCloseTo(100, -1);
  });

  it('counts the registry refreshes each gateway and sync replica receives: four per gateway per lease', () => {
    const sized = size(prices, 100_000);
    expect(sized.registryMessagesPerSecond).toBeCloseTo((sized.gateways * 4 * (sized.gateways + sized.cores.sync)) / LEASE_SECONDS);
  });

  it('predicts polls bounded by the gateways\' event loops or by the shared cores, whichever is lower', () => {
    // One gateway at 0.3 ms: 3,333/s on its own core; 2 cores over 0.31 + 0.2 ms: 3,922/s.
    expect(predictedPolls(prices.hit, 0.2, 1, 2)).toEqual({ perSecond: expect.closeTo(1000 / 0.3, 3), bound: 'gateway event loops' });
    // Two gateways: the shared cores bind first.
    expect(predictedPolls(prices.hit, 0.2, 2, 2)).toEqual({ perSecond: expect.closeTo(2000 / 0.51, 3), bound: 'shared cores' });
  });
});
