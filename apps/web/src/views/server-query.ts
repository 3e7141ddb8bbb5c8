import { useEffect, useState } from 'preact/hooks';
import { refusalText } from '../state/refusals';
import { serverData } from '../state/store';

/** Runs a server query and re-runs it whenever the synced state changes (a push, a local edit). */
export function useServerQuery<T>(load: () => Promise<T>, key: string): { result: T | undefined; error: string | null } {
  const [result, setResult] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const token = serverData.value.syncToken;
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && (setResult(value), setError(null)),
      (err: unknown) => current && setError(refusalText(err)),
    );
    return () => {
      current = false;
    };
  }, [key, token]);
  return { result, error };
}
