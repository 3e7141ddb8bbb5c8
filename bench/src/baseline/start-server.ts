import { until } from '../poll';
import { benchEntry, type Child, spawnNode } from '../processes';

export interface BaselineServer {
  readonly url: string;
  readonly child: Child;
  stop(): Promise<void>;
}

/** Starts a compiled baseline server (`baseline/<file>.js`) and waits for the port it prints. */
export async function startBaselineServer(file: string, env: NodeJS.ProcessEnv): Promise<BaselineServer> {
  const child = spawnNode(`baseline ${file}`, benchEntry(`baseline/${file}.js`), [], env);
  const port = await until(
    () => {
      if (child.process.exitCode !== null) throw new Error(`baseline exited: ${child.output()}`);
      return /LISTENING (\d+)/.exec(child.output())?.[1];
    },
    `the baseline ${file} to listen`,
    15_000,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      await child.stop(5_000);
    },
  };
}
