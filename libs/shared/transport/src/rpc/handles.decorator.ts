import { holdsAnyScope, type Principal, type RequestSubject, type Scope } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { MessagePattern } from '@nestjs/microservices';
import { unpackRequest } from './request-packing';

/**
 * What a handler needs of who is calling, checked at the service edge before it runs, so no
 * handler repeats it (and none can forget it): a principal (the gateway authenticated the call;
 * without one AUTH_REQUIRED) and, with `anyScope`, a token holding one of those scopes (FORBIDDEN,
 * naming them, otherwise).
 */
export interface PrincipalRequirement {
  readonly principal: true | { readonly anyScope: readonly Scope[] };
}

/** A request whose principal the edge has checked: the handler reads it without a null check. */
export type WithPrincipal<Req> = Req & { readonly principal: Principal };

function requirePrincipal(payload: unknown, requirement: PrincipalRequirement): void {
  const principal = (payload as { principal?: Principal | null }).principal;
  if (!principal) throw new DomainError('AUTH_REQUIRED');
  if (requirement.principal === true) return;
  const { anyScope } = requirement.principal;
  if (!holdsAnyScope(principal, anyScope)) {
    throw new DomainError('FORBIDDEN', `This token may not do this (it needs one of ${anyScope.join(', ')})`, { required_scopes: anyScope });
  }
}

/** What each loaded handler requires of its caller, by subject name (filled as handlers are declared). */
const REQUIREMENTS = new Map<string, PrincipalRequirement | null>();

/**
 * Every request subject a loaded handler answers, with its PrincipalRequirement (null: none).
 * Read by the test that holds the gateway's bearer routes and the services' edge checks together.
 */
export function handledSubjects(): ReadonlyMap<string, PrincipalRequirement | null> {
  return REQUIREMENTS;
}

type RequestHandler<Req> = (request: Req, ...rest: never[]) => unknown;
type SubjectHandlerDecorator<Req> = <M extends RequestHandler<Req>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void;

/**
 * Marks a method as the handler of a request subject and validates the payload against the
 * subject's schema before the method runs: a message is checked where it is consumed, never
 * trusted because of who sent it. With a PrincipalRequirement the caller is checked next, and the
 * method may take the request as WithPrincipal. Put it above any other decorator on the method.
 */
export function Handles<Req, Rep>(subject: RequestSubject<Req, Rep>): MethodDecorator;
export function Handles<Req extends { readonly principal: Principal | null }, Rep>(subject: RequestSubject<Req, Rep>, requirement: PrincipalRequirement): SubjectHandlerDecorator<WithPrincipal<Req>>;
export function Handles<Req, Rep>(subject: RequestSubject<Req, Rep>, requirement?: PrincipalRequirement): MethodDecorator {
  return (target, key, descriptor) => {
    REQUIREMENTS.set(subject.name, requirement ?? null);
    const original = descriptor.value as unknown as (payload: unknown, ...rest: unknown[]) => unknown;
    const validated = function (this: unknown, payload: unknown, ...rest: unknown[]) {
      const parsed = subject.request.safeParse(unpackRequest(payload));
      if (!parsed.success) {
        // The argument a client can act on: the deepest named key of the first issue (`body.content` -> content).
        const argument = [...parsed.error.issues[0].path].reverse().find((key) => typeof key === 'string' && !['body', 'query', 'params'].includes(key));
        throw new DomainError('INVALID_ARGUMENT_VALUE', `malformed ${subject.name} request`, {
          ...(typeof argument === 'string' ? { argument } : {}),
          issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
        });
      }
      if (requirement) requirePrincipal(parsed.data, requirement);
      return original.call(this, parsed.data, ...rest);
    };
    // Keep whatever Nest metadata earlier decorators put on the original function.
    for (const metaKey of Reflect.getMetadataKeys(original)) {
      Reflect.defineMetadata(metaKey, Reflect.getMetadata(metaKey, original), validated);
    }
    Object.defineProperty(validated, 'name', { value: original.name });
    (descriptor as PropertyDescriptor).value = validated;
    return MessagePattern(subject.name)(target, key, descriptor);
  };
}
