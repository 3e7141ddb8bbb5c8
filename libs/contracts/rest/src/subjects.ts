import { domainEdgeRequestSchema, type EdgeReply, edgeReplySchema, type EdgeRequest, requestSubject } from '@doable/contracts-common';

/** REST v1, REST v2 and api/v1 REST requests forwarded by the gateway. */
export const edge = requestSubject<EdgeRequest, EdgeReply>('rest.edge.v1', domainEdgeRequestSchema, edgeReplySchema);
