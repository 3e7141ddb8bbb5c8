import { trustProxySetting } from './gateway.service-definition';

describe('GATEWAY_TRUST_PROXY', () => {
  it.each([
    ['', false],
    ['false', false],
    ['1', 1],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
  ] as const)('reads %j as %j for Express', (raw, expected) => {
    expect(trustProxySetting(raw)).toEqual(expected);
  });
});
