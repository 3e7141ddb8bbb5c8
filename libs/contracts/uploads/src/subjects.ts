import { type EdgeReply, type EdgeRequest, edgeRequestSchema, requestSubject } from '@doable/contracts-common';

/** Upload endpoints (v7 `/API/v7/uploads/*`, api/v1 `/uploads`) forwarded by the gateway. */
export const edge = requestSubject<EdgeRequest, EdgeReply>('uploads.edge.v1', edgeRequestSchema);
