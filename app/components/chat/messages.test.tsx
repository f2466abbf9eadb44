import type { UIMessage } from 'ai'
import { expect, test } from 'vitest'
import { describeToolCall, type ToolPart } from './messages'

/**
 * The approval box says everything a tool that writes was given, whatever fields the task schema
 * has: the person approves what will be written, not a summary of it.
 */

const call = (type: string, input: Record<string, unknown>) =>
  ({ type, toolCallId: 'c1', state: 'approval-requested', input }) as unknown as ToolPart

const message = (...parts: unknown[]) => ({ id: 'm1', role: 'assistant', parts }) as UIMessage

test('creating a task names its title and every other field it will be given', () => {
  const part = call('tool-createTask', {
    text: 'Water the plants',
    priority: 'high',
    hrs: 2,
    isPublic: true,
    dueDate: '2026-12-01',
  })
  expect(describeToolCall(part, message(part))).toBe(
    'Create the task “Water the plants” (priority: high, hrs: 2, isPublic: true, dueDate: 2026-12-01).',
  )
})

test('changing a task names it by the title an earlier tool listed, with each change', () => {
  const listed = {
    type: 'tool-searchMyTasks',
    toolCallId: 'c0',
    state: 'output-available',
    output: { total: 1, tasks: [{ id: 't1', text: 'Book flights' }] },
  }
  const part = call('tool-updateTask', { taskId: 't1', details: null, hrs: 3 })
  expect(describeToolCall(part, message(listed, part))).toBe('Change “Book flights”: details: none, hrs: 3.')
  const status = call('tool-setTaskStatus', { taskId: 't2', status: 'Completed' })
  expect(describeToolCall(status, message(listed, status))).toBe('Set the status of task t2 to “Completed”.')
})
