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
export const ITEM_COMMANDS = [
  ItemAddCommand,
  ItemUpdateCommand,
  // Placing by the old generations' flat positions (v7, v6): see item-flat-place.command.ts.
  ItemAddFlatCommand,
  ItemUpdateFlatCommand,
  ItemUpdateOrdersIndentsCommand,
  ItemDeleteCommand,
  ItemCompleteCommand,
  ItemUncompleteCommand,
  ItemCloseCommand,
  ItemMoveCommand,
  ItemReorderCommand,
  ItemUpdateDayOrdersCommand,
  ItemUpdateDateCompleteCommand,
];
