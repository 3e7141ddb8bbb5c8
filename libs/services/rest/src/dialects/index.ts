import type { RestSurface } from '@doable/contracts-rest';
import type { RestDialect } from './rest-dialect';
import { restApiV1Dialect } from './rest-api-v1.dialect';
import { restV1Dialect } from './rest-v1.dialect';
import { restV2Dialect } from './rest-v2.dialect';

export type { DialectContext, RenderedRestDialect, RestDialect, WrittenRestDialect } from './rest-dialect';

export const REST_DIALECTS: Readonly<Record<RestSurface, RestDialect>> = { 'rest-v1': restV1Dialect, 'rest-v2': restV2Dialect, 'rest-api-v1': restApiV1Dialect };
export { OBJECT_WRITERS, type WrittenResource } from './written-objects';
