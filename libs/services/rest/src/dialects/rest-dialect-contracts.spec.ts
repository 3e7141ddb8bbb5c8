import { restOperationContract } from '@doable/contracts-rest';
import { apiObjectSamples } from '@doable/contracts-sync/testing';
import type { z } from 'zod';
import { restApiV1Dialect } from './rest-api-v1.dialect';

const { task, project, section, label, comment, collaborator } = apiObjectSamples;
const context = { publicUrl: 'https://doable.example' };

function responseOf(operation: string, surface: 'rest-api-v1'): z.ZodType {
  const response = restOperationContract(operation, surface)?.response;
  if (!response) throw new Error(`${operation} on ${surface} answers no body`);
  return response;
}

// REST v2's writers are the sync service's, checked against the same contract in libs/sync/dialects/src/rest-v2.
describe.each([['rest-api-v1', restApiV1Dialect]] as const)('the %s writers against the contract the OpenAPI document is generated from', (surface, dialect) => {
  it.each([
    ['tasks.get', () => dialect.task(task, context)],
    ['tasks.get', () => dialect.task({ ...task, due: null, deadline: null, duration: null, section_id: null, parent_id: null, responsible_uid: null }, context)],
    ['projects.get', () => dialect.project(project, context)],
    ['sections.get', () => dialect.section(section)],
    ['labels.get', () => dialect.label(label)],
    ['comments.get', () => dialect.comment(comment)],
  ] as const)('%s: a fully populated object parses', (operation, write) => {
    expect(responseOf(operation, surface).safeParse(write()).error?.issues).toBeUndefined();
  });

  it('a collaborator parses', () => {
    const list = responseOf('projects.collaborators', surface);
    const written = [dialect.collaborator(collaborator)];
    expect(list.safeParse({ results: written, next_cursor: null }).error?.issues).toBeUndefined();
  });

  it('an object with a key the contract does not know fails (the contract is strict)', () => {
    expect(responseOf('labels.get', surface).safeParse({ ...dialect.label(label), surprise: 1 }).success).toBe(false);
  });
});
