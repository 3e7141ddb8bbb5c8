import { rolePermissions } from '@doable/contracts-sync';

/**
 * `GET /api/v1/projects/permissions`: what each project role and each workspace role may do,
 * from the tables sync enforces (contracts-sync project-roles and workspace-roles), so what is
 * shown is what is allowed.
 */
export function projectPermissions(): Record<string, unknown> {
  return rolePermissions();
}
