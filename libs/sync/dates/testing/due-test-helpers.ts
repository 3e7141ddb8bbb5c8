import { DomainError } from '@doable/shared-errors';
import { type DateContext } from '../src/due.model';

/** Wednesday 18 November 2026, 11:00 in Berlin: every golden row is measured from here. */
export const NOW = new Date('2026-11-18T10:00:00Z');
export const BERLIN: DateContext = { now: NOW, timezone: 'Europe/Berlin' };

/** The DomainError a call throws; fails the test when it returns or throws something else. */
export function thrownDomainError(call: () => unknown): DomainError {
  try {
    call();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError, but the call returned');
}
