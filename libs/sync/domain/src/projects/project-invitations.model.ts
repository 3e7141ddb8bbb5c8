import type { ProjectRole } from '@doable/contracts-sync';
import { INVITATION_COLUMNS, type Invitation } from '../membership/invitation.model';

/** An invitation to a project (share_project), as the domain stores it (see Invitation). */
export interface ProjectInvitation extends Invitation {
  project_id: string;
  role: Exclude<ProjectRole, 'CREATOR'>;
  message: string;
}

export const PROJECT_INVITATION_COLUMNS = `${INVITATION_COLUMNS}, project_id::text, role, message`;
