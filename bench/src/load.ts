import type { LoadPlan, LoadResult } from './load-plan';
import { benchEntry, spawnNode } from './processes';

/**
 * Runs one plan in a fresh load-runner process and returns its figures. Bounded: the runner is
 * killed if it has not answered 60 s after its warm-up and run should have ended.
 */
export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const runner = spawnNode('load-runner', benchEntry('load-runner.js'), [], {}, { stdin: JSON.stringify(plan) });
  const timer = setTimeout(() => void runner.stop(2_000), (plan.warmupS + plan.durationS + 60) * 1_000);
  const code = await runner.exited;
  clearTimeout(timer);
  const line = runner
    .output()
    .split('\n')
    .find((text) => text.startsWith('RESULT '));
  if (code !== 0 || !line) throw new Error(`load runner exited with ${code}: ${runner.output()}`);
  return JSON.parse(line.slice('RESULT '.length)) as LoadResult;
}
