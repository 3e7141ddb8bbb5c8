import { findRestEndpoint, openApiDocument, RestSubjects } from '@doable/contracts-rest';
import { RouteTable } from '@doable/gateway/routes';
import { type HttpExchange, observeHttp } from '@doable/shared-testing';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';

/**
 * Every REST v2 and api/v1 REST response an e2e spec receives through `http()`, checked against
 * the OpenAPI document (the same one the gateway serves): the status must be one the operation
 * answers, a 200 body must match its schema, a 204 must have no body, and an error body must
 * match the Error schema. A mismatch throws from `http()`, failing the test with the operation,
 * the status and Ajv's errors.
 */

const DOCUMENT_ID = 'openapi.json';
type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
const document = openApiDocument({ serverUrl: '/' }) as { paths: Record<string, Record<string, Operation>>; components: unknown };
const routes = new RouteTable();
// The components under an id of their own, so `#/components/schemas/...` inside them resolve
// there; each operation's schema is compiled once, when first met, with its refs pointed at it.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
const compiled = new Map<string, ValidateFunction>();

function validator(operation: { path: string; method: string }, status: string): ValidateFunction {
  const key = `${operation.method} ${operation.path} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = document.paths[operation.path]?.[operation.method]?.responses[status]?.content?.['application/json']?.schema;
    if (schema === undefined) throw new Error(`No schema for ${key}`);
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as object);
    compiled.set(key, validate);
  }
  return validate;
}

/** The documented operation a request reached, or undefined when it is not REST v2 or api/v1 REST. */
export function documentedOperation(method: string, pathname: string): { path: string; method: string; operationId: string } | undefined {
  const resolution = routes.resolve(method, pathname);
  if (resolution.kind !== 'match') return undefined;
  // The rest service's routes only: api/v1 `tasks/quick` speaks the api/v1 dialect but is sync's.
  const surface = resolution.match.route.dialect;
  if (resolution.match.route.subject !== RestSubjects.edge || (surface !== 'rest-v2' && surface !== 'rest-api-v1')) return undefined;
  const found = findRestEndpoint(surface, method, pathname.replace(/\/$/, ''));
  if (!found) return undefined;
  const path = `${surface === 'rest-v2' ? '/rest/v2' : '/api/v1'}${found.endpoint.path.replace(/:([a-z_]+)/g, '{$1}')}`;
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is served but missing from the OpenAPI document`);
  return { path, method: method.toLowerCase(), operationId: operation.operationId };
}

/** What is wrong with one exchange against the document, or undefined when it matches (or is not documented). */
export function openApiMismatch(exchange: HttpExchange): string | undefined {
  const operation = documentedOperation(exchange.method.toUpperCase(), exchange.url.pathname);
  if (!operation) return undefined;
  const where = `${operation.operationId} (${exchange.method} ${exchange.url.pathname}) answered ${exchange.status}`;
  const responses: Record<string, unknown> = document.paths[operation.path]?.[operation.method]?.responses ?? {};
  if (exchange.status === 204 || (exchange.status < 300 && !('200' in responses))) {
    if (!(String(exchange.status) in responses)) return `${where}, which the document does not list (${Object.keys(responses).join(', ')})`;
    return exchange.body === undefined ? undefined : `${where} with a body`;
  }
  const status = exchange.status >= 400 ? (String(exchange.status) in responses ? String(exchange.status) : 'default') : String(exchange.status);
  if (!(status in responses)) return `${where}, which the document does not list (${Object.keys(responses).join(', ')})`;
  const validate = validator(operation, status);
  if (validate(exchange.body)) return undefined;
  return `${where} with a body its schema refuses:\n${JSON.stringify(validate.errors, null, 2)}\nbody: ${JSON.stringify(exchange.body).slice(0, 2000)}`;
}

/**
 * Checks every REST v2 / api/v1 response of the calling spec file against the document. Call at
 * the top of a spec (or of a describe block); it stays on until the file ends.
 */
export function checkRestResponsesAgainstOpenApi(): void {
  let stop: (() => void) | undefined;
  beforeAll(() => {
    stop = observeHttp((exchange) => {
      const mismatch = openApiMismatch(exchange);
      if (mismatch) throw new Error(`OpenAPI: ${mismatch}`);
    });
  });
  afterAll(() => stop?.());
}
