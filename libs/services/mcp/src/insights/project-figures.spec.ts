import { clockOf } from './local-calendar';
import { type ActiveTask, countLate, healthOf, lateTasks, projectMetrics, type ProjectMetrics } from './project-figures';

const clock = clockOf(new Date('2026-03-14T12:00:00Z'), 'UTC');
const task = (id: string, fields: Partial<ActiveTask> = {}): ActiveTask => ({ id, content: `task ${id}`, addedAt: '2026-01-01T00:00:00Z', due: null, deadline: null, priority: 1, labels: [], ...fields });
const done = (id: string, addedAt: string | null, completedAt: string) => ({ id, projectId: '1', addedAt, completedAt });

const base: ProjectMetrics = {
  activeTasks: 4,
  completedTasks: 2,
  progressPercent: 33,
  overdueTasks: 0,
  pastDeadlineTasks: 0,
  unscheduledTasks: 0,
  tasksAddedLast7Days: 1,
  tasksCompletedLast7Days: 0,
  tasksCompletedPrevious7Days: 1,
  averageCompletionDays: 2,
};

describe('project figures', () => {
  it('counts progress, late and unscheduled tasks, and the last weeks\' additions and completions', () => {
    const active = [
      task('1', { due: '2026-03-10' }),
      task('2', { due: '2026-03-14', deadline: '2026-03-01' }),
      task('3', { addedAt: '2026-03-13T09:00:00Z' }),
      task('4', { due: '2026-03-20' }),
    ];
    const recent = [
      done('5', '2026-03-12T00:00:00Z', '2026-03-14T00:00:00Z'),
      done('6', '2026-02-01T00:00:00Z', '2026-03-05T00:00:00Z'),
      done('7', null, '2026-02-20T00:00:00Z'),
    ];
    expect(projectMetrics(active, 4, recent, clock)).toEqual({
      activeTasks: 4,
      completedTasks: 4,
      progressPercent: 50,
      overdueTasks: 1,
      pastDeadlineTasks: 1,
      unscheduledTasks: 1,
      tasksAddedLast7Days: 2,
      tasksCompletedLast7Days: 1,
      tasksCompletedPrevious7Days: 1,
      // (2 + 32) / 2 days; the completion without an added date is left out.
      averageCompletionDays: 17,
    });
    expect(countLate(active, clock)).toBe(2);
    expect(lateTasks(active, clock)).toEqual([
      { taskId: '2', content: 'task 2', reason: 'past_deadline', date: '2026-03-01' },
      { taskId: '1', content: 'task 1', reason: 'overdue', date: '2026-03-10' },
    ]);
  });

  it('answers 0% and no average for an empty project', () => {
    expect(projectMetrics([], 0, [], clock)).toMatchObject({ progressPercent: 0, averageCompletionDays: null });
  });
});

describe('project health rules', () => {
  it('is UNKNOWN without tasks', () => {
    expect(healthOf({ ...base, activeTasks: 0, completedTasks: 0 }, 0).status).toBe('UNKNOWN');
  });

  it('is CRITICAL when most active tasks are late, or some are and nothing was completed in 14 days', () => {
    expect(healthOf(base, 3)).toEqual({ status: 'CRITICAL', reasons: ['3 of 4 active tasks are overdue or past their deadline.'] });
    expect(healthOf({ ...base, tasksCompletedPrevious7Days: 0 }, 1).reasons).toEqual(['1 of 4 active tasks are overdue or past their deadline.', 'Nothing was completed in the last 14 days.']);
  });

  it('is AT_RISK when some task is late, or the project stalled', () => {
    expect(healthOf(base, 2).status).toBe('AT_RISK');
    expect(healthOf({ ...base, tasksAddedLast7Days: 0, tasksCompletedPrevious7Days: 0 }, 0).status).toBe('AT_RISK');
  });

  it('is EXCELLENT when all is done, or completions keep up with additions', () => {
    expect(healthOf({ ...base, activeTasks: 0 }, 0).status).toBe('EXCELLENT');
    expect(healthOf({ ...base, tasksCompletedLast7Days: 1 }, 0).status).toBe('EXCELLENT');
  });

  it('is ON_TRACK otherwise', () => {
    expect(healthOf(base, 0)).toEqual({ status: 'ON_TRACK', reasons: ['Nothing is late.'] });
    expect(healthOf({ ...base, tasksCompletedLast7Days: 1, tasksAddedLast7Days: 3 }, 0).status).toBe('ON_TRACK');
  });
});
