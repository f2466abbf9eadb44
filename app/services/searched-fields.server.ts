import { getTableColumns, getTableName, type Table } from 'drizzle-orm'
import { comments, tasks } from '~/db/schema'

/**
 * What search reads of a task and of a comment, declared once. The full-text indexes hold these
 * fields as their columns, in this order, then the audience (docs/decisions/039-search-index.md,
 * 046); the search service matches, ranks and highlights by them; a test fails unless the live
 * database's indexes, their triggers and the view comments are indexed through cover exactly these
 * fields, and the search property test writes a word into each one alone and finds it. A field is
 * made searchable by a row here and a migration that rebuilds the index with it
 * (docs/architecture.md, "A searchable field, and what the MCP server's and the assistant's tools
 * expose").
 */

type SearchedField<Row> = {
  /** The table's field, as drizzle names it. */
  field: keyof Row & string
  /** What a word found in it counts for in bm25's ranking, against the others' weights. */
  weight: number
}

/** A title's word counts ten times a word of the details. */
export const SEARCHED_TASK_FIELDS = [
  { field: 'text', weight: 10 },
  { field: 'details', weight: 1 },
] as const satisfies readonly SearchedField<typeof tasks.$inferSelect>[]

export const SEARCHED_COMMENT_FIELDS = [
  { field: 'content', weight: 1 },
] as const satisfies readonly SearchedField<typeof comments.$inferSelect>[]

/** The index column that narrows a search to what its searcher may see; it counts for nothing in ranking. */
export const AUDIENCE_COLUMN = tasks.searchAudience.name

export type SearchIndex<Field extends string> = {
  /** The virtual table (the schema does not declare it: drizzle-kit would try to create it). */
  name: string
  /** The table whose rows it indexes. */
  table: string
  /** The searched fields' SQL column names, in the index's order. */
  searched: string[]
  /** Every column of the index, in order: the searched ones, then the audience. */
  columns: string[]
  /** bm25's weights, one a column. */
  weights: number[]
  /** A searched field's column number, as highlight() and snippet() take it. */
  columnOf(field: Field): number
}

function searchIndex<Field extends string>(
  name: string,
  table: Table,
  fields: readonly { field: Field; weight: number }[],
): SearchIndex<Field> {
  const columns = getTableColumns(table)
  const searched = fields.map(({ field }) => {
    const column = columns[field]
    if (!column) throw new Error(`${name}: ${field} is not a field of its table`)
    return column.name
  })
  return {
    name,
    table: getTableName(table),
    searched,
    columns: [...searched, AUDIENCE_COLUMN],
    weights: [...fields.map(({ weight }) => weight), 0],
    columnOf: (field) => fields.findIndex((entry) => entry.field === field),
  }
}

type FieldOf<Fields extends readonly { field: string }[]> = Fields[number]['field']

export const TASKS_INDEX = searchIndex<FieldOf<typeof SEARCHED_TASK_FIELDS>>(
  'tasks_search',
  tasks,
  SEARCHED_TASK_FIELDS,
)
export const COMMENTS_INDEX = searchIndex<FieldOf<typeof SEARCHED_COMMENT_FIELDS>>(
  'comments_search',
  comments,
  SEARCHED_COMMENT_FIELDS,
)
