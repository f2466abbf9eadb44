import { LibsqlError } from '@libsql/client'
import Database from 'libsql'

/** The original's translation of a native error: its base code, extended code and number. */
export function mapSqliteError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const rawCode = error.rawCode
    const code = rawCode === undefined ? 'SQLITE_UNKNOWN' : baseCodeName(rawCode & 0xff)
    return new LibsqlError(error.message, code, error.code, rawCode, error)
  }
  return error
}

const BASE_CODES = [
  'SQLITE_OK',
  'SQLITE_ERROR',
  'SQLITE_INTERNAL',
  'SQLITE_PERM',
  'SQLITE_ABORT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOMEM',
  'SQLITE_READONLY',
  'SQLITE_INTERRUPT',
  'SQLITE_IOERR',
  'SQLITE_CORRUPT',
  'SQLITE_NOTFOUND',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_EMPTY',
  'SQLITE_SCHEMA',
  'SQLITE_TOOBIG',
  'SQLITE_CONSTRAINT',
  'SQLITE_MISMATCH',
  'SQLITE_MISUSE',
  'SQLITE_NOLFS',
  'SQLITE_AUTH',
  'SQLITE_FORMAT',
  'SQLITE_RANGE',
  'SQLITE_NOTADB',
  'SQLITE_NOTICE',
  'SQLITE_WARNING',
]

function baseCodeName(base: number) {
  return (base > 0 ? BASE_CODES[base] : undefined) ?? `SQLITE_UNKNOWN_${base}`
}
