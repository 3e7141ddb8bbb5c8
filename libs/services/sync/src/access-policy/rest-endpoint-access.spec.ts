import { REST_ENDPOINTS } from '@doable/contracts-rest';
import { registeredPolicies } from './registered-handlers';

/**
 * The REST endpoints say what each write needs of a token (RestEndpoint.access: the command it
 * runs and that command's scopes), for the OpenAPI document, which cannot see the commands. The
 * rule is the command's own declaration (CommandPolicy.scopes on its handler): this spec holds
 * every endpoint's line to it, so the document says what the service applies.
 */
const policies = registeredPolicies();
const writes = REST_ENDPOINTS.flatMap((endpoint) => ('runs' in endpoint.access ? [{ operation: endpoint.operation, runs: endpoint.access.runs, scopes: endpoint.access.scopes }] : []));

describe('the REST endpoints that write', () => {
  it('are found (guards against a spec that checks nothing)', () => {
    expect(writes.length).toBeGreaterThan(30);
  });

  it.each(writes)('$operation runs $runs, a command the service declares, with the scopes it declares', ({ runs, scopes }) => {
    const policy = policies.of(runs);
    expect(policy).toBeDefined();
    expect([...scopes].sort()).toEqual([...(policy?.scopes ?? [])].sort());
  });
});
