import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServiceClient } from '@doable/shared-transport';
import {
  FilterRepository,
  FolderRepository,
  ItemDates,
  ItemRepository,
  KarmaRepository,
  LabelRepository,
  LocationRepository,
  NoteRepository,
  ProjectInvitationsRepository,
  ProjectMembersRepository,
  ProjectRepository,
  ReminderRepository,
  SectionRepository,
  UserProfileRepository,
  ViewOptionsRepository,
  WorkspaceFilterRepository,
  WorkspaceInvitationsRepository,
  WorkspaceMembersRepository,
  WorkspaceRepository,
} from '@doable/sync-domain';
import { COMMAND_HANDLERS, type CommandHandler } from '../src/command-handler';
import { COMMAND_PROVIDERS } from '../src/commands/index';
import { DEFAULT_INVITATION_BUDGET, INVITATION_BUDGET, type InvitationBudget } from '../src/commands/sharing/invitation-budget';

/** The repositories of the sync schema the commands use (stateless: each method runs on the caller's transaction). */
const REPOSITORIES = [
  ProjectRepository,
  ItemRepository,
  SectionRepository,
  ItemDates,
  KarmaRepository,
  LabelRepository,
  FilterRepository,
  NoteRepository,
  ReminderRepository,
  LocationRepository,
  UserProfileRepository,
  ViewOptionsRepository,
  ProjectMembersRepository,
  ProjectInvitationsRepository,
  WorkspaceRepository,
  WorkspaceMembersRepository,
  WorkspaceInvitationsRepository,
  WorkspaceFilterRepository,
  FolderRepository,
];

/** A spec without other services: a command that asks one fails loudly. */
const NO_SERVICES = { request: () => Promise.reject(new Error('This spec gives the commands no service client')) };

/**
 * Every public command, built by Nest's injector from the same COMMAND_PROVIDERS the sync service
 * registers: what the specs' executors run, so a spec meets the commands as the service wires them.
 */
export async function commandHandlers(options: { services?: ServiceClient; invitationBudget?: InvitationBudget } = {}): Promise<CommandHandler[]> {
  @Module({
    providers: [
      ...REPOSITORIES,
      ...COMMAND_PROVIDERS,
      { provide: ServiceClient, useValue: options.services ?? NO_SERVICES },
      { provide: INVITATION_BUDGET, useValue: options.invitationBudget ?? DEFAULT_INVITATION_BUDGET },
    ],
  })
  class CommandsUnderTest {}
  const context = await NestFactory.createApplicationContext(CommandsUnderTest, { logger: false, abortOnError: false });
  const handlers = context.get<symbol, CommandHandler[]>(COMMAND_HANDLERS);
  await context.close();
  return handlers;
}
