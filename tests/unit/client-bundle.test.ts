import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { drizzleMarkersIn } from '../../scripts/check-client-bundle'

/**
 * The check after the build (scripts/check-client-bundle.ts) recognises drizzle by strings in its
 * code. Should an upgrade of drizzle-orm rename them, the check would pass blindly: this fails
 * first.
 */

const drizzleDir = 'node_modules/drizzle-orm'
const drizzleModule = (path: string) => readFileSync(join(drizzleDir, path), 'utf8')

describe('the client bundle check', () => {
  test("recognises drizzle-orm's table and column code", () => {
    expect(drizzleMarkersIn(drizzleModule('table.js'))).not.toEqual([])
    expect(drizzleMarkersIn(drizzleModule('sqlite-core/table.js'))).not.toEqual([])
    expect(drizzleMarkersIn(drizzleModule('sqlite-core/columns/common.js'))).not.toEqual([])
  })

  test('passes code that merely lists the domain constants', () => {
    expect(drizzleMarkersIn(readFileSync('app/domain/constants.ts', 'utf8'))).toEqual([])
  })
})
