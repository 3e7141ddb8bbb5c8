import { type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import { z } from 'zod';
import { TASK_CREATE_INPUTS, TASK_UPDATE_INPUTS, taskBodyInputs } from './rest-inputs.schema';
import { restTaskInputs, restTaskShape } from './rest-task-inputs';

const WITH_ESTIMATE = {
  ...TASK_FIELDS,
  estimate: {
    column: { type: 'integer', nullable: true },
    args: { add: z.int().min(0).nullish(), update: z.int().min(0).nullish() },
    apiV1: 'estimate',
    schema: z.int().nullable(),
    restV2: { key: 'estimate_minutes', render: 'value' },
    backup: true,
    template: false,
    csv: [],
  },
} as const satisfies FieldTable;

describe('the task fields REST takes as they are', () => {
  it('are none of today’s lines: REST spells each of them its own way', () => {
    expect({ create: TASK_CREATE_INPUTS, update: TASK_UPDATE_INPUTS }).toEqual({ create: [], update: [] });
  });

  it('are a new line’s, under its REST v2 key, with the command’s schema, unless the body names the key already', () => {
    const { create, update } = taskBodyInputs(WITH_ESTIMATE);
    expect([...create, ...update].map(({ field, key }) => ({ field, key }))).toEqual([
      { field: 'estimate', key: 'estimate_minutes' },
      { field: 'estimate', key: 'estimate_minutes' },
    ]);
    expect(create[0]?.schema.safeParse(undefined).success).toBe(true);
    expect(create[0]?.schema.safeParse(-1).success).toBe(false);
    expect(restTaskInputs(WITH_ESTIMATE, 'update', ['estimate_minutes']).map((input) => input.field)).not.toContain('estimate');
    const body = z.object(restTaskShape(WITH_ESTIMATE, 'update', ['content']));
    expect(body.parse({ estimate_minutes: 5 })).toEqual({ estimate_minutes: 5 });
  });
});
