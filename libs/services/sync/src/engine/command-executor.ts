import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import { LOGGER, type Logger, currentCorrelationId } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import type { Principal } from '@doable/contracts-common';
import { Inject, Injectable } from '@nestjs/common';
import { UserProfileRepository } from '../users/user-profile.repository';
import { CommandLogRepository, type CommandStatus } from './command-log.repository';
import { COMMAND_HANDLERS, type CommandHandler } from './commands/command-handler';
import { mayRunCommand, requiredScopes } from './scopes';
import type { SyncCommand } from './sync-request';
import { lockUser, openChange } from './user-change';

export interface CommandResults {
  readonly syncStatus: Record<string, CommandStatus>;
  readonly tempIdMapping: Record<string, string>;
}

/**
 * Runs a request's commands in order, each in its own transaction: one failing command rolls
 * back only itself. A uuid already executed is not run again; its stored outcome is replayed.
 * Each transaction first locks the user's row, which orders the user's versions by commit and
 * makes two racing copies of one request run the command once.
 */
@Injectable()
export class CommandExecutor {
  private readonly handlers: ReadonlyMap<string, CommandHandler>;

  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly log: CommandLogRepository,
    @Inject(COMMAND_HANDLERS) handlers: CommandHandler[],
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.type, handler]));
  }

  async run(principal: Principal, commands: readonly SyncCommand[]): Promise<CommandResults> {
    const syncStatus: Record<string, CommandStatus> = {};
    const tempIdMapping: Record<string, string> = {};
    for (const command of commands) {
      // Not remembered in the log: the same uuid may be retried with a token that may run it.
      syncStatus[command.uuid] = mayRunCommand(principal, command.type)
        ? await this.runOne(principal.userId, command, tempIdMapping)
        : { ...todoistErrorBody(new DomainError('FORBIDDEN', `This token may not run ${command.type}`, { required_scopes: requiredScopes(command.type) })) };
    }
    return { syncStatus, tempIdMapping };
  }

  private async runOne(userId: string, command: SyncCommand, batchMapping: Record<string, string>): Promise<CommandStatus> {
    try {
      return await this.database.transaction(async (tx) => {
        const profile = await lockUser(tx, this.profiles, userId);
        const logged = await this.log.find(tx.manager, userId, command.uuid);
        if (logged) {
          Object.assign(batchMapping, logged.tempIdMapping);
          return logged.status;
        }
        const handler = this.handlers.get(command.type);
        if (!handler) throw new DomainError('UNKNOWN_COMMAND', `Unknown command type: ${command.type}`, { command_type: command.type });
        const change = await openChange(tx, this.profiles, profile);
        const outcome = await handler.run(
          {
            tx,
            userId,
            version: change.version,
            user: change.user,
            touch: change.touch,
            resolveId: async (value, argument) => {
              const id = typeof value === 'number' ? String(value) : value;
              if (typeof id !== 'string' || id.length === 0 || id.length > 100) {
                throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
              }
              const mapped = batchMapping[id] ?? (await this.log.resolveTempId(tx.manager, userId, id));
              if (mapped) return mapped;
              if (/^[0-9]{1,19}$/.test(id)) return id;
              throw new DomainError('INVALID_TEMP_ID', 'Invalid temporary id', { argument, temp_id: id });
            },
          },
          command.args,
        );
        const mapping: Record<string, string> = {};
        if (command.temp_id && outcome.createdId) {
          mapping[command.temp_id] = outcome.createdId;
          await this.log.rememberTempId(tx.manager, userId, command.temp_id, outcome.createdId);
        }
        await this.log.record(tx.manager, userId, command.uuid, 'ok', mapping);
        await change.close();
        Object.assign(batchMapping, mapping);
        return 'ok' as const;
      });
    } catch (err) {
      if (err instanceof DomainError) {
        const status = { ...todoistErrorBody(err) };
        // A deterministic refusal is remembered too: a retry gets the same answer.
        if (err.code !== 'USER_NOT_FOUND') await this.database.transaction((tx) => this.log.record(tx.manager, userId, command.uuid, status, {}));
        return status;
      }
      // Not remembered: an unexpected failure may succeed on retry.
      this.logger.error({ err, commandType: command.type, uuid: command.uuid }, 'command failed unexpectedly');
      return { ...todoistErrorBody(new DomainError('INTERNAL'), currentCorrelationId()) };
    }
  }
}
