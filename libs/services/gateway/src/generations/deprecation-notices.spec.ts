import { DEFAULT_DEPRECATION_DATE, deprecationEnv, deprecationHeaders, deprecationSettings } from './deprecation-notices';

describe('deprecation notices', () => {
  const defaults = deprecationSettings(deprecationEnv.parse({}));

  it('marks every old generation deprecated since the default date, with a link to api/v1 and no Sunset', () => {
    for (const dialect of ['sync-v9', 'sync-v8', 'sync-v7', 'sync-v6', 'first-generation'] as const) {
      expect(deprecationHeaders(dialect, defaults)).toEqual({
        Deprecation: `@${Date.parse(DEFAULT_DEPRECATION_DATE) / 1000}`,
        Link: '</api/v1/sync>; rel="successor-version"',
      });
    }
    expect(DEFAULT_DEPRECATION_DATE).toBe('2025-01-01T00:00:00Z');
    expect(deprecationHeaders('sync-v7', defaults)['Deprecation']).toBe('@1735689600');
  });

  it('leaves the current generation, REST and MCP unmarked', () => {
    for (const dialect of ['sync-api-v1', 'rest-api-v1', 'rest-v2', 'rest-v1', 'mcp'] as const) expect(deprecationHeaders(dialect, defaults)).toEqual({});
  });

  it("takes each generation's dates from the environment: Deprecation as @seconds, Sunset as an HTTP-date, and the docs link", () => {
    const settings = deprecationSettings(
      deprecationEnv.parse({
        DEPRECATION_DATE_SYNC_V7: '2019-01-15',
        SUNSET_DATE_SYNC_V7: '2027-06-30T12:00:00Z',
        DEPRECATION_DOCS_URL: 'https://doable.example/deprecations',
      }),
    );
    expect(deprecationHeaders('sync-v7', settings)).toEqual({
      Deprecation: '@1547510400',
      Sunset: 'Wed, 30 Jun 2027 12:00:00 GMT',
      Link: '</api/v1/sync>; rel="successor-version", <https://doable.example/deprecations>; rel="deprecation"; type="text/html"',
    });
    // Another generation keeps its own (default) dates.
    expect(deprecationHeaders('sync-v8', settings)).toMatchObject({ Deprecation: '@1735689600' });
    expect(deprecationHeaders('sync-v8', settings)['Sunset']).toBeUndefined();
  });

  it('refuses a date that is not ISO 8601 and a docs URL that is not http(s)', () => {
    expect(deprecationEnv.safeParse({ SUNSET_DATE_SYNC_V9: 'next year' }).success).toBe(false);
    expect(deprecationEnv.safeParse({ DEPRECATION_DATE_SYNC_V8: '2026-13-45' }).success).toBe(false);
    expect(deprecationEnv.safeParse({ DEPRECATION_DOCS_URL: 'ftp://x.example/' }).success).toBe(false);
  });
});
