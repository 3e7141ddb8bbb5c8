import { z } from 'zod';
import { takenBody, takenInputs } from './tasks.tools';

describe('the task tools’ inputs from the task field table', () => {
  it('name a field REST takes as it is in camelCase, and pass it under its REST key', () => {
    const inputs = takenInputs([{ field: 'estimate', key: 'estimate_minutes', schema: z.int().optional() }]);
    expect(inputs.map(({ name, key }) => ({ name, key }))).toEqual([{ name: 'estimateMinutes', key: 'estimate_minutes' }]);
    expect(takenBody({ content: 'x', estimateMinutes: 5 }, inputs)).toEqual({ estimate_minutes: 5 });
    expect(takenBody({ content: 'x' }, inputs)).toEqual({});
  });
});
