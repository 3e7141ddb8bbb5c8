import { SCOPES, type Scope } from '@doable/contracts-common';
import { readScopes } from '@doable/contracts-sync';
import { z } from 'zod';
import { REST_ENDPOINTS, REST_PREFIXES, type RestEndpoint } from '../endpoints';
import { restError } from './rest-error.schema';
import { DOCUMENTED_SURFACES, type DocumentedSurface, type OperationContract, restOperationContract } from './rest-operations.schema';

/**
 * The OpenAPI 3.1 description of REST v2 and the api/v1 REST surface, generated from the
 * endpoint list and the operation contracts the rest service validates with (zod's own
 * `z.toJSONSchema`, JSON Schema 2020-12, which is OpenAPI 3.1's dialect). Named schemas
 * (`.meta({ id })`) become `components.schemas`, each once.
 */

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  /** The server the paths are relative to ('/' serves them from wherever the document is). */
  readonly serverUrl: string;
}

const SURFACE_TITLES: Readonly<Record<DocumentedSurface, string>> = { 'rest-v2': 'REST v2', 'rest-api-v1': 'api/v1' };

/** `/tasks/:id` -> `/tasks/{id}` */
const openApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');
const pathParams = (path: string) => [...path.matchAll(/:([a-z_]+)/g)].map((match) => match[1] ?? '');

/** `tasks.create` on api/v1 -> `apiV1TasksCreate`. */
function operationId(surface: DocumentedSurface, operation: string): string {
  const words = [surface === 'rest-v2' ? 'restV2' : 'apiV1', ...operation.split(/[._]/)];
  return words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
}

/**
 * The scopes that let a token call an endpoint, any one being enough: what the read policy says
 * of the resource it reads, or what the command it runs declares (RestEndpoint.access). None: any
 * token (the code's role tables). Each is one OpenAPI security requirement.
 */
function scopesOf(endpoint: RestEndpoint): readonly Scope[] {
  return 'reads' in endpoint.access ? readScopes(endpoint.access.reads) : endpoint.access.scopes;
}

function securityOf(endpoint: RestEndpoint): Json[] {
  const scopes = scopesOf(endpoint);
  const oauth2 = scopes.length === 0 ? [{ oauth2: [] }] : scopes.map((scope) => ({ oauth2: [scope] }));
  return [...oauth2, { personalToken: [] }];
}

interface Documented {
  readonly endpoint: RestEndpoint;
  readonly surface: DocumentedSurface;
  readonly id: string;
  readonly contract: OperationContract;
}

function documentedOperations(): Documented[] {
  return REST_ENDPOINTS.flatMap((endpoint) =>
    DOCUMENTED_SURFACES.filter((surface) => endpoint.surfaces.includes(surface)).flatMap((surface) => {
      const contract = restOperationContract(endpoint.operation, surface);
      if (!contract) throw new Error(`No contract for ${endpoint.operation} on ${surface}`);
      return [{ endpoint, surface, id: operationId(surface, endpoint.operation), contract }];
    }),
  );
}

/**
 * Every schema of one direction converted at once, as the properties of one object, so that
 * each named schema is written once (in `$defs`, then moved to components). Requests are read
 * as input (what a client may send), responses as output (what the server writes).
 */
function convert(schemas: Readonly<Record<string, z.ZodType>>, io: 'input' | 'output'): { properties: Record<string, Json>; defs: Record<string, Json> } {
  const whole = z.toJSONSchema(z.object(schemas), { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  const relinked = JSON.parse(JSON.stringify(whole).replaceAll('"#/$defs/', '"#/components/schemas/')) as { properties?: Record<string, Json>; $defs?: Record<string, Json> };
  return { properties: relinked.properties ?? {}, defs: relinked.$defs ?? {} };
}

function parameters(documented: Documented, query: Json | undefined): Json[] {
  const path = pathParams(documented.endpoint.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const required = new Set((query?.['required'] as string[] | undefined) ?? []);
  const properties = (query?.['properties'] as Record<string, Json> | undefined) ?? {};
  const queryParams = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
  return [...path, ...queryParams];
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export function openApiDocument(options: OpenApiOptions): Json {
  const documented = documentedOperations();
  const requests: Record<string, z.ZodType> = {};
  const responses: Record<string, z.ZodType> = { Error: restError };
  for (const { id, contract } of documented) {
    if (contract.query) requests[`${id}Query`] = contract.query;
    if (contract.body) requests[`${id}Body`] = contract.body;
    if (contract.response) responses[`${id}Response`] = contract.response;
  }
  const input = convert(requests, 'input');
  const output = convert(responses, 'output');

  const paths: Record<string, Record<string, Json>> = {};
  for (const item of documented) {
    const { endpoint, surface, id, contract } = item;
    const path = `${REST_PREFIXES[surface]}${openApiPath(endpoint.path)}`;
    const success = contract.response
      ? { 200: { description: 'OK', content: { 'application/json': { schema: output.properties[`${id}Response`] } } } }
      : { 204: { description: 'Done; no body.' } };
    const body = contract.body ? input.properties[`${id}Body`] : undefined;
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = {
      operationId: id,
      summary: `${endpoint.operation} (${SURFACE_TITLES[surface]})`,
      tags: [SURFACE_TITLES[surface]],
      parameters: parameters(item, contract.query ? input.properties[`${id}Query`] : undefined),
      ...(body ? { requestBody: { required: endpoint.method === 'POST' && endpoint.path.split('/').length === 2, content: { 'application/json': { schema: body } } } } : {}),
      responses: {
        ...success,
        400: errorResponse('Invalid or missing argument.'),
        401: errorResponse('No valid token.'),
        403: errorResponse('The token lacks the scope, or the user the access.'),
        404: errorResponse('No such object (or not visible to the user).'),
        429: errorResponse('Too many requests.'),
        default: errorResponse('Any other error, in the same body.'),
      },
      security: securityOf(endpoint),
    };
  }

  const scopeDescriptions = Object.fromEntries(SCOPES.map((scope) => [scope, scope]));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Doable REST API',
      version: '1.0.0',
      description: 'REST v2 (`/rest/v2`) and the api/v1 REST surface (`/api/v1`) of Doable, a Todoist-wire-compatible task backend. Generated from the contracts the server validates with.',
    },
    servers: [{ url: options.serverUrl }],
    tags: DOCUMENTED_SURFACES.map((surface) => ({ name: SURFACE_TITLES[surface] })),
    paths,
    components: {
      // `Error` is named (`.meta({ id })`), so it is among the output's definitions already.
      schemas: Object.fromEntries(Object.entries({ ...input.defs, ...output.defs }).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        personalToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (all scopes).' },
        oauth2: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/access_token', scopes: scopeDescriptions } } },
      },
    },
  };
}
