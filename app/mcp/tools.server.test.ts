import { describe, expect, test } from 'vitest'
import { NewCommentSchema } from '~/services/comment-schemas'
import { SearchInputSchema } from '~/services/search-query'
import {
  TaskFieldsSchema,
  TaskIdSchema,
  TaskListFiltersSchema,
  TaskUpdateSchema,
} from '~/services/tasks/task-schemas'
import type { z } from '~/utils/zod'
import { TOOLS, type ToolName } from './tools.server'

/**
 * An agent's tool takes its service's schema whole, as the RPC endpoint does: a field added to a
 * service's schema reaches the tool, or this fails. `adds` are what a tool needs beyond the schema
 * (a page number); tools whose service takes no object schema list their arguments there.
 */
const SOURCES: Record<ToolName, { schemas: z.ZodObject[]; adds?: string[] }> = {
  list_workspaces: { schemas: [] },
  list_tasks: { schemas: [TaskListFiltersSchema], adds: ['page', 'workspaceId'] },
  search: { schemas: [SearchInputSchema] },
  get_task: { schemas: [TaskIdSchema] },
  create_task: { schemas: [TaskFieldsSchema] },
  update_task: { schemas: [TaskIdSchema, TaskUpdateSchema] },
  add_comment: { schemas: [NewCommentSchema] },
  list_notifications: { schemas: [] },
  mark_notifications_read: { schemas: [], adds: ['notificationId'] },
}

const keysOf = (schema: z.ZodObject) => Object.keys(schema.shape)

describe('every MCP tool’s input is its service’s schema', () => {
  test('each tool has its source here', () => {
    expect(Object.keys(SOURCES).sort()).toEqual(Object.keys(TOOLS).sort())
  })

  test.each(Object.keys(TOOLS) as ToolName[])('%s takes every field of its schema', (name) => {
    const { schemas, adds = [] } = SOURCES[name]
    const expected = new Set([...schemas.flatMap(keysOf), ...adds])
    expect(keysOf(TOOLS[name].inputSchema).sort()).toEqual([...expected].sort())
  })

  test('the tools that list, search and create tasks take a workspace, by their schemas', () => {
    for (const name of ['list_tasks', 'search', 'create_task'] as const) {
      expect(keysOf(TOOLS[name].inputSchema), name).toContain('workspaceId')
    }
  })
})
