import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { formErrors, repliedField } from '~/components/forms'
import { TaskFieldsSchema } from '~/services/tasks/task-schemas'

/**
 * A form the server alone validates (the create form on /task) shows the server's answer: what
 * was sent and the errors of each field. The answer here is a real one, from the action's schema.
 */
function refusedReply(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.append(name, value)
  const submission = parseWithZod(formData, { schema: TaskFieldsSchema })
  if (submission.status === 'success') throw new Error('expected the schema to refuse the form')
  return submission.reply()
}

describe('a field of a form the server validates', () => {
  test('before any answer: its starting value, its constraints and no errors', () => {
    const field = repliedField(undefined, 'create-task-hrs', 'hrs', '1', { min: 1, max: 8 })
    expect(field).toMatchObject({ id: 'create-task-hrs', name: 'hrs', initialValue: '1', min: 1, max: 8 })
    expect(field.errors).toBeUndefined()
  })

  test('after a refusal: the value sent and the schema’s message for it', () => {
    const reply = refusedReply({ text: 'ab', hrs: '3', priority: 'high' })
    const text = repliedField(reply, 'create-task-text', 'text', '')
    expect(text.initialValue).toBe('ab')
    expect(text.errors).toEqual(['Title must be at least 3 characters'])
    expect(text.errorId).toBe('create-task-text-error')
    expect(repliedField(reply, 'create-task-hrs', 'hrs', '1')).toMatchObject({
      initialValue: '3',
      errors: undefined,
    })
    expect(repliedField(reply, 'create-task-priority', 'priority', 'medium').initialValue).toBe('high')
  })

  test('a field left empty in the refused form stays empty, not its starting value', () => {
    const reply = refusedReply({ text: '' })
    expect(repliedField(reply, 'create-task-hrs', 'hrs', '1').initialValue).toBe('')
    expect(repliedField(reply, 'create-task-text', 'text', '').errors).toEqual(['Title is required'])
  })

  test("a list's errors belong to its items, and are gathered on the field", () => {
    const reply = refusedReply({ text: 'A fine title', sharedWith: 'grace@example.com, not-an-address' })
    const field = repliedField(reply, 'create-task-sharedWith', 'sharedWith')
    expect(field.initialValue).toBe('grace@example.com, not-an-address')
    expect(field.errors?.length).toBeGreaterThan(0)
    expect(repliedField(reply, 'create-task-text', 'text').errors).toBeUndefined()
  })

  test("the form's own errors are those under no field", () => {
    expect(formErrors(undefined)).toBeUndefined()
    expect(formErrors({ status: 'error', error: { '': ['Task not found'], text: ['x'] } })).toEqual([
      'Task not found',
    ])
  })
})
