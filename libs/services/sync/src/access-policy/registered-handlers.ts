import 'reflect-metadata';
import type { FactoryProvider, Type } from '@nestjs/common';
import { COMMAND_HANDLERS, type CommandHandler, CommandPolicies, INTERNAL_COMMAND_HANDLERS } from '@doable/sync-engine';
import { SyncModule } from '../sync.service-definition';

/** One registration of SyncModule, built by its own factory (its dependencies are stand-ins, never called). */
function registered(token: symbol, ...leading: unknown[]): CommandHandler[] {
  const providers = Reflect.getMetadata('providers', SyncModule) as unknown[];
  const provider = providers.find((candidate): candidate is FactoryProvider => typeof candidate === 'object' && candidate !== null && (candidate as FactoryProvider).provide === token);
  if (!provider) throw new Error(`SyncModule registers no ${String(token)}`);
  const inject = provider.inject ?? [];
  // The public commands are injected classes (COMMAND_PROVIDERS): each is built over stand-ins.
  const standIns = inject.slice(leading.length).map((dependency): unknown => (typeof dependency === 'function' && token === COMMAND_HANDLERS ? new (dependency as Type<unknown>)(...Array.from({ length: dependency.length }, (): unknown => ({}))) : {}));
  return provider.useFactory(...leading, ...standIns) as CommandHandler[];
}

/**
 * The handlers the service registers (the public ones, then the internal ones), as its module
 * builds them: what the specs derive every table from, so they check the real declarations and
 * never a copy of them.
 */
export function registeredHandlers(): { readonly handlers: CommandHandler[]; readonly internal: CommandHandler[] } {
  const handlers = registered(COMMAND_HANDLERS);
  return { handlers, internal: registered(INTERNAL_COMMAND_HANDLERS, handlers) };
}

/** The registry the service's executor builds from those handlers. */
export function registeredPolicies(): CommandPolicies {
  const { handlers, internal } = registeredHandlers();
  return new CommandPolicies([...handlers, ...internal]);
}
