import { natsServers } from './nats-servers';

describe('natsServers', () => {
  it('gives a single server as a list of one', () => {
    expect(natsServers('nats://nats:4222')).toEqual(['nats://nats:4222']);
  });

  it("splits a cluster's servers, trimming spaces and dropping empty entries", () => {
    expect(natsServers('nats://n1:4222, nats://n2:4222,,nats://n3:4222 ')).toEqual(['nats://n1:4222', 'nats://n2:4222', 'nats://n3:4222']);
  });
});
