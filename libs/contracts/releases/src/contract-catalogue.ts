import { AuthEvents, AuthSubjects, GatewayRevocation } from '@doable/contracts-auth';
import type { EventSubject, RequestSubject } from '@doable/contracts-common';
import { McpSubjects } from '@doable/contracts-mcp';
import { NotificationsEvents, NotificationsSubjects } from '@doable/contracts-notifications';
import { PlansEvents, PlansSubjects } from '@doable/contracts-plans';
import { RestSubjects } from '@doable/contracts-rest';
import { GatewayPolls, SyncEvents, SyncSubjects } from '@doable/contracts-sync';
import { UploadsSubjects } from '@doable/contracts-uploads';

export type AnySubject = RequestSubject<unknown, unknown> | EventSubject<unknown>;

/**
 * Every module of the contracts that declares subjects or events. A new module is added here;
 * contract-catalogue.spec.ts fails when a subject named in the contracts' sources is missing.
 */
const MODULES: readonly Record<string, unknown>[] = [
  AuthSubjects,
  AuthEvents,
  GatewayRevocation,
  SyncSubjects,
  SyncEvents,
  GatewayPolls,
  PlansSubjects,
  PlansEvents,
  NotificationsSubjects,
  NotificationsEvents,
  UploadsSubjects,
  RestSubjects,
  McpSubjects,
];

function isSubject(value: unknown): value is AnySubject {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  return (kind === 'request' || kind === 'event') && typeof name === 'string';
}

/** Every request subject and event the contracts export, by name. */
export function contractCatalogue(): ReadonlyMap<string, AnySubject> {
  const subjects = new Map<string, AnySubject>();
  for (const module of MODULES) {
    for (const value of Object.values(module)) {
      if (!isSubject(value)) continue;
      const seen = subjects.get(value.name);
      if (seen && seen !== value) throw new Error(`subject ${value.name} is declared twice`);
      subjects.set(value.name, value);
    }
  }
  return subjects;
}
