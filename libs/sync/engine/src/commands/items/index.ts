import type { ItemDates, ItemRepository, LabelRepository, ProjectRepository, SectionRepository } from '@doable/sync-domain';
import type { CommandHandler } from '../../command-handler';
import { ItemAddCommand } from './item-add.command';
import { ItemCloseCommand } from './item-close.command';
import { ItemCompleteCommand } from './item-complete.command';
import { ItemDeleteCommand } from './item-delete.command';
import { ItemAddFlatCommand, ItemUpdateFlatCommand, ItemUpdateOrdersIndentsCommand } from './item-flat-place.command';
import { ItemMoveCommand } from './item-move.command';
import { ItemReorderCommand } from './item-reorder.command';
import { ItemUncompleteCommand } from './item-uncomplete.command';
import { ItemUpdateDateCompleteCommand } from './item-update-date-complete.command';
import { ItemUpdateDayOrdersCommand } from './item-update-day-orders.command';
import { ItemUpdateCommand } from './item-update.command';

/** Every task command. */
export function itemCommands(items: ItemRepository, projects: ProjectRepository, sections: SectionRepository, dates: ItemDates, labels: LabelRepository): CommandHandler[] {
  const add = new ItemAddCommand(items, projects, sections, dates, labels);
  const update = new ItemUpdateCommand(items, dates, labels);
  const reopening = { items, sections, projects };
  return [
    add,
    update,
    // Placing by the old generations' flat positions (v7, v6): see item-flat-place.command.ts.
    new ItemAddFlatCommand(items, add),
    new ItemUpdateFlatCommand(items, update),
    new ItemUpdateOrdersIndentsCommand(items),
    new ItemDeleteCommand(items),
    new ItemCompleteCommand(items),
    new ItemUncompleteCommand(reopening),
    new ItemCloseCommand(items, dates),
    new ItemMoveCommand(items, projects, sections),
    new ItemReorderCommand(items),
    new ItemUpdateDayOrdersCommand(items),
    new ItemUpdateDateCompleteCommand(reopening, dates),
  ];
}
