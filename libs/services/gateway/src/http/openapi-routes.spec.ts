import { openApiDocument, REST_ENDPOINTS } from '@doable/contracts-rest';
import { validateOpenApi } from '@doable/shared-testing';
import { openApiDocsPage } from './openapi-docs-page';

describe('the OpenAPI document the gateway serves', () => {
  const document = openApiDocument({ serverUrl: '/' }) as { paths: Record<string, Record<string, { operationId: string }>> };

  it('validates as OpenAPI 3.1 (the official schemas, @seriousme/openapi-schema-validator)', () => {
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.1' });
  });

  it('describes every REST v2 and api/v1 endpoint once, with a unique operationId, and no REST v1 path', () => {
    const documented = REST_ENDPOINTS.reduce((sum, endpoint) => sum + endpoint.surfaces.filter((surface) => surface !== 'rest-v1').length, 0);
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(ids).toHaveLength(documented);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/rest/v2/') && !path.startsWith('/api/v1/'))).toEqual([]);
    expect(document.paths['/rest/v2/tasks/{id}']?.['post']?.operationId).toBe('restV2TasksUpdate');
  });

  it('names each component schema once, none of them a bare reference (to itself or another)', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Error', 'TaskV2', 'TaskApiV1', 'ProjectV2', 'ProjectApiV1', 'TaskCreate']));
    expect(Object.entries(schemas).filter(([, schema]) => '$ref' in schema).map(([name]) => name)).toEqual([]);
  });

  it('refuses a broken document (the validator can fail)', () => {
    expect(validateOpenApi({ ...document, openapi: '3.1.0', paths: { '/x': { get: { responses: 'none' } } } }).valid).toBe(false);
  });

  it('renders a documentation page with every operation and schema, escaped and without scripts', () => {
    const html = openApiDocsPage(document);
    expect(html).toContain('id="apiV1TasksFilter"');
    expect(html).toContain('id="schema-TaskV2"');
    expect(html).toContain('<a href="#schema-TaskV2">');
    expect(html).not.toMatch(/<script/i);
  });
});
