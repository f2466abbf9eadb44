import type { Database } from './client.server'

/**
 * A query built once per database instead of on every call. drizzle's `.prepare()` keeps the
 * finished SQL and its parameter order, so a hot read skips building the query each time; on a
 * local file the driver keeps the statement compiled for that SQL on each connection
 * (native-client.server.ts), so the call only binds and steps it. A prepared query belongs to the
 * database it was built on, never to a transaction: the first call on each database builds its own.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>()
  return (db) => {
    let query = built.get(db)
    if (!query) {
      query = build(db)
      built.set(db, query)
    }
    return query
  }
}
