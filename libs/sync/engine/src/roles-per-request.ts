/**
 * A user's standing in each project or workspace a request acts in, read once per scope per
 * request (the first command that needs it), and forgotten after a command that may change
 * memberships (CommandPolicies.changesMemberships), so the next one reads it again. What
 * ProjectAccess and WorkspaceAccess check against.
 */
export class RolesPerRequest<Standing> {
  private readonly read = new Map<string, Standing | undefined>();

  constructor(private readonly load: (scopeId: string) => Promise<Standing | undefined>) {}

  /** The standing in the scope; undefined for no membership. */
  async of(scopeId: string): Promise<Standing | undefined> {
    if (!this.read.has(scopeId)) this.read.set(scopeId, await this.load(scopeId));
    return this.read.get(scopeId);
  }

  /** The standing of() read, without reading; undefined when none was read. */
  known(scopeId: string): Standing | undefined {
    return this.read.get(scopeId);
  }

  forget(): void {
    this.read.clear();
  }
}
