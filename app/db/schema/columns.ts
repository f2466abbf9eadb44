import { integer, text } from 'drizzle-orm/sqlite-core'

/**
 * The columns every area's tables share. Ids are random strings, safe to mint on any instance
 * and impossible to enumerate; times are integer milliseconds.
 */
export const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID())
export const ms = (name: string) => integer(name, { mode: 'timestamp_ms' })
export const createdAt = () =>
  ms('created_at')
    .notNull()
    .$defaultFn(() => new Date())
export const updatedAt = () =>
  ms('updated_at')
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date())
