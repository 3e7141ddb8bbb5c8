import type { RequestSubject } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { MessagePattern } from '@nestjs/microservices';
import { unpackRequest } from './request-packing';

/**
 * Marks a method as the handler of a request subject and validates the payload against the
 * subject's schema before the method runs: a message is checked where it is consumed, never
 * trusted because of who sent it. Put it above any other decorator on the method.
 */
export function Handles<Req, Rep>(subject: RequestSubject<Req, Rep>): MethodDecorator {
  return (target, key, descriptor) => {
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
