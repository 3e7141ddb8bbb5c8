import type { EntityManager } from 'typeorm';
import type { PlanLimitsRepository } from './plan-limits.repository';
import { PlanGate } from './plan-gate';

describe('PlanGate.forCommand', () => {
  // Never reached: the declaration is checked before a plan or a count is read.
  const gate = new PlanGate({} as EntityManager, {} as PlanLimitsRepository, '1');

  it('refuses to count a quantity the command does not declare, as a programming error', async () => {
    const command = gate.forCommand('item_add', ['max_tasks']);
    await expect(command.room('max_labels', { planOf: '1', count: () => Promise.resolve(0) })).rejects.toThrow('command item_add counts max_labels, which its policy does not declare');
    await expect(command.requireRoom('max_sections', { planOf: '1', count: () => Promise.resolve(0) })).rejects.toThrow(/does not declare/);
  });

  it('counts a declared quantity', async () => {
    const plans = { limitsOf: () => Promise.resolve(new Map([['1', { current: { plan_name: 'tiny', max_tasks: 5 } }]])) } as unknown as PlanLimitsRepository;
    const command = new PlanGate({} as EntityManager, plans, '1').forCommand('item_add', ['max_tasks']);
    await expect(command.room('max_tasks', { planOf: '1', count: () => Promise.resolve(3) })).resolves.toBe(2);
  });
});
