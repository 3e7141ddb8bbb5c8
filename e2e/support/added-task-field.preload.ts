import { addEstimateLine } from './added-task-field';

/**
 * Preloaded (`node --require`) by the child process of added-task-field.system.ts: the line goes
 * into the task table before the system's code loads, in the process and in each worker thread
 * it starts (a worker inherits the process's `--require`; the CPU pool's workers parse the
 * restored backups, so they must know the line too).
 */
addEstimateLine();
