// The Todoist filter language: parsed to an AST and compiled to a parameterised SQL condition.
// Pure: no Nest, no database connection (the caller runs the SQL; libs/sync/read/src/task-filter.service.ts).
export type { Assignee, DateComparison, FilterList, FilterNode, FilterTerm, NamePattern } from './filter.ast';
export type { FilterContext } from './filter-context';
export { parseFilterQuery } from './filter.parser';
export { compileAnyFilter, compileFilter, type CompiledFilter, STORED_DUE_DATE } from './filter-sql.compiler';
