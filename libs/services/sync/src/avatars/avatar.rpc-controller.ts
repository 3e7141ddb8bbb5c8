import { SyncSubjects } from '@doable/contracts-sync';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { sharedProjectIds, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { lockUser, openChange } from '@doable/sync-engine';

/**
 * The user's avatar id, set by the uploads service once it has made the sizes (uploads owns the
 * bytes, sync the profile row). One change like a command's: the user's next sync carries the
 * user object, everyone sharing a project with them gets the collaborator record again, and
 * everyone in a workspace with them the workspace user.
 */
@RpcController()
export class AvatarRpcController {
  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly workspaceMembers: WorkspaceMembersRepository,
  ) {}

  @Handles(SyncSubjects.setAvatar)
  setAvatar(request: { userId: string; imageId: string | null }): Promise<{ previousImageId: string | null }> {
    return this.database.transaction(async (tx) => {
      const profile = await lockUser(tx, this.profiles, request.userId);
      const previousImageId = profile.image_id ?? null;
      if (previousImageId === request.imageId) return { previousImageId: null };
      const change = await openChange(tx, this.profiles, profile);
      await this.profiles.setImage(tx.manager, request.userId, request.imageId, change.version);
      change.touch(...(await sharedProjectIds(tx.manager, request.userId)));
      // workspace_users carry image_id too: the user's memberships are written again, and every member is told.
      change.touchWorkspaces(...(await this.workspaceMembers.restampMember(tx.manager, request.userId, change.version)));
      await change.close();
      return { previousImageId };
    });
  }
}
