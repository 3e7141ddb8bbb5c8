import { parseLaunchArgs } from './cluster-launcher';

describe('npm run start:cluster options', () => {
  it('defaults to one replica of each service and the gateway on 8080', () => {
    expect(parseLaunchArgs([])).toEqual({ port: 8080, replicas: {}, eventsReplicas: {}, verbose: false });
  });

  it('takes replica counts per service (--gateways for the gateway)', () => {
    expect(parseLaunchArgs(['--gateways', '2', '--sync', '3', '--auth-oauth', '2', '--port', '0', '--verbose'])).toEqual({ port: 0, replicas: { gateway: 2, sync: 3, 'auth-oauth': 2 }, eventsReplicas: {}, verbose: true });
  });

  it('takes events processes per service (--sync-events: sync as k8s/base runs it)', () => {
    expect(parseLaunchArgs(['--sync', '2', '--sync-events', '1', '--webhooks-events', '2'])).toMatchObject({ replicas: { sync: 2 }, eventsReplicas: { sync: 1, webhooks: 2 } });
  });

  it.each([['--sync', '0'], ['--rest', 'two'], ['--port', '70000'], ['--sync-events', '0']])('refuses %s %s', (option, value) => {
    expect(() => parseLaunchArgs([option, value])).toThrow(option);
  });

  it('answers --help with the usage (undefined)', () => {
    expect(parseLaunchArgs(['--help'])).toBeUndefined();
  });
});
