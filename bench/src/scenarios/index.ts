import type { Scenario } from './scenario';
import { s1NoChangeSync } from './s1-no-change-sync';
import { s2ItemAdd } from './s2-item-add';
import { s3FullSyncLarge } from './s3-full-sync-large';
import { s4IncrementalScale } from './s4-incremental-scale';
import { s5RestFilter } from './s5-rest-filter';
import { s6Mixed } from './s6-mixed';
import { s7OldGenerationFullSync } from './s7-old-generation-full-sync';
import { s8SharedProject } from './s8-shared-project';
import { s9PlanLimitAdd } from './s9-plan-limit-add';
import { s10Upload } from './s10-upload';
import { s11McpToolCall } from './s11-mcp-tool-call';
import { s12WebhookPushLatency } from './s12-webhook-push-latency';
import { s13Replicas } from './s13-replicas';
import { s14WebFirstLoad } from './s14-web-first-load';
import { s15NatsCluster } from './s15-nats-cluster';
import { s16HomeGateways } from './s16-home-gateways';
import { s17ReadReplica } from './s17-read-replica';

/** The suite, in the order it runs (S1 before S6: S6 writes, S1 needs nothing to change). */
export const SCENARIOS: readonly Scenario[] = [s1NoChangeSync, s2ItemAdd, s3FullSyncLarge, s4IncrementalScale, s5RestFilter, s6Mixed, s7OldGenerationFullSync, s8SharedProject, s9PlanLimitAdd, s10Upload, s11McpToolCall, s12WebhookPushLatency, s13Replicas, s14WebFirstLoad, s15NatsCluster, s16HomeGateways, s17ReadReplica];
