import { join } from 'node:path';
import { checkGeneratedSections, withGeneratedSections } from '@doable/shared-testing';
import { registeredPolicies } from './registered-handlers';
import { roleTables } from './role-table';

/** The docs page that holds the tables (the README used to; it now points there). */
const PAGE = join(__dirname, '../../../../../docs/api/roles.md');
const REGENERATE = 'UPDATE_DOCS=1 npx jest libs/services/sync/src/access-policy/role-table --selectProjects unit';

describe("docs/api/roles.md's role tables", () => {
  const declared = registeredPolicies().declared();

  it('are the ones the declared policies generate', () => {
    const sections = roleTables(declared);
    const text = checkGeneratedSections(PAGE, sections, REGENERATE);
    expect(text).toBe(withGeneratedSections(text, sections));
  });

  it('show each role what it may do: only the CREATOR deletes, a COMPLETE_ONLY member adds no task, a GUEST only belongs', () => {
    const { 'project-roles': project, 'workspace-roles': workspace } = roleTables(declared);
    expect(project).toContain('| **delete**: `project_delete` | ✓ |  |  |  |  |');
    expect(project.split('\n').find((line) => line.startsWith('| **edit**'))).toMatch(/`item_add`.* \| ✓ \| ✓ \| ✓ \| ✓ \|  \|$/);
    expect(project).toContain('| READ_WRITE | READ_WRITE, EDIT_ONLY, COMPLETE_ONLY |');
    expect(workspace.split('\n').find((line) => line.startsWith('| **belong**'))).toMatch(/ \| ✓ \| ✓ \| ✓ \|$/);
    expect(workspace).toContain('| MEMBER | MEMBER, GUEST |');
    expect(workspace).toContain('| GUEST | none |');
  });
});
