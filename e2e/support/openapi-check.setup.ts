import { checkRestResponsesAgainstOpenApi } from './openapi-check';

// `OPENAPI_CHECK=1`: every e2e spec's REST v2 / api/v1 responses are checked against the document,
// not only those of the specs that turn the check on themselves.
if (process.env['OPENAPI_CHECK'] === '1') checkRestResponsesAgainstOpenApi();
