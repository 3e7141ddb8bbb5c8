import 'reflect-metadata';
import { type Principal, principalSchema, requestSubject } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { Handles, type WithPrincipal } from './handles.decorator';

type Call = { principal: Principal | null; text: string };
const call = requestSubject<Call, string>('test.principal.v1', z.object({ principal: principalSchema.nullable(), text: z.string() }));

class Controller {
  readonly seen: string[] = [];

  @Handles(call, { principal: true })
  anyCaller(request: WithPrincipal<Call>): string {
    // Typed as present: no null check here, the edge made it.
    this.seen.push(request.principal.userId);
    return request.text;
  }

  @Handles(call, { principal: { anyScope: ['data:read', 'data:read_write'] } })
  reader(request: WithPrincipal<Call>): string {
    this.seen.push(request.principal.userId);
    return request.text;
  }
}

const principal = (...scopes: Principal['scopes']): Principal => ({ userId: '7', scopes, appId: null, tokenKind: 'oauth' });

function refusal(run: () => unknown): DomainError | undefined {
  try {
    run();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  return undefined;
}

describe('Handles with a principal requirement', () => {
  it('refuses a call without a principal before the handler runs (AUTH_REQUIRED)', () => {
    const controller = new Controller();
    expect(refusal(() => controller.anyCaller({ principal: null, text: 'x' } as unknown as WithPrincipal<Call>))).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(controller.seen).toEqual([]);
  });

  it('runs the handler for any principal when no scope is asked', () => {
    const controller = new Controller();
    expect(controller.anyCaller({ principal: principal('task:add'), text: 'hi' })).toBe('hi');
    expect(controller.seen).toEqual(['7']);
  });

  it('refuses a token holding none of the scopes (FORBIDDEN naming them) and runs for one holding any', () => {
    const controller = new Controller();
    expect(refusal(() => controller.reader({ principal: principal('task:add'), text: 'x' }))).toMatchObject({ code: 'FORBIDDEN', extra: { required_scopes: ['data:read', 'data:read_write'] } });
    expect(controller.reader({ principal: principal('data:read'), text: 'ok' })).toBe('ok');
    expect(controller.seen).toEqual(['7']);
  });

  it('validates the payload first: a malformed one is INVALID_ARGUMENT_VALUE whoever sends it', () => {
    const controller = new Controller();
    expect(refusal(() => controller.anyCaller({ principal: null } as unknown as WithPrincipal<Call>))).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE' });
  });
});
