import { checkRestResponsesAgainstOpenApi } from './openapi-check';

// On for every e2e spec: each REST v2 / api/v1 response from a rest-service route that a spec
// receives through `http()` is checked against the OpenAPI document. `OPENAPI_CHECK=0` turns it
// off (to see what a spec does past a mismatch while fixing one).
if (process.env['OPENAPI_CHECK'] !== '0') checkRestResponsesAgainstOpenApi();
