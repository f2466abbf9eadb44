import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { plainTaskFields, TASK_FIELD_CONSTRAINTS, TaskForm } from '~/components/task-form'
import { DetailsSchema, HrsSchema, TaskFieldsSchema, TaskTextSchema } from '~/services/tasks/task-schemas'
import { z } from '~/utils/zod'

/**
 * The task modal's edit form is checked by the browser alone (the modal is on every page, and
 * zod stays off them), so the attributes it gives the browser must say what the schema says.
 */
describe('the browser checks a task as its schema does', () => {
  const { text, details, hrs } = TASK_FIELD_CONSTRAINTS

  test('the title: required, and between the minimum and the maximum length', () => {
    expect(TaskTextSchema.safeParse('').success).toBe(!text.required)
    expect(TaskTextSchema.safeParse('x'.repeat(text.minLength - 1)).success).toBe(false)
    expect(TaskTextSchema.safeParse('x'.repeat(text.minLength)).success).toBe(true)
    expect(TaskTextSchema.safeParse('x'.repeat(text.maxLength)).success).toBe(true)
    expect(TaskTextSchema.safeParse('x'.repeat(text.maxLength + 1)).success).toBe(false)
  })

  test('the details: at most the maximum length', () => {
    expect(DetailsSchema.safeParse('x'.repeat(details.maxLength)).success).toBe(true)
    expect(DetailsSchema.safeParse('x'.repeat(details.maxLength + 1)).success).toBe(false)
  })

  test('the hours: whole steps from the minimum to the maximum', () => {
    expect(HrsSchema.safeParse(String(hrs.min)).success).toBe(true)
    expect(HrsSchema.safeParse(String(hrs.max)).success).toBe(true)
    expect(HrsSchema.safeParse(String(hrs.min - hrs.step)).success).toBe(false)
    expect(HrsSchema.safeParse(String(hrs.max + hrs.step)).success).toBe(false)
    expect(HrsSchema.safeParse(String(hrs.min + hrs.step / 2)).success).toBe(false)
  })
})

test('a task to edit fills the form, each label naming its control, with the browser’s checks', () => {
  const fields = plainTaskFields('edit', {
    text: 'Draft the agenda',
    details: null,
    refLink: 'https://example.com/agenda',
    priority: 'high',
    status: 'In Progress',
    hrs: 3,
    dueDate: '2026-12-03',
  })
  const html = renderToStaticMarkup(
    <TaskForm
      fields={fields}
      priorities={['high', 'medium', 'low']}
      statuses={['Not Started', 'In Progress']}
    />,
  )
  /** The opening tag of the control the label names, and the options it has selected. */
  const control = (label: string) => {
    const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`).exec(html)?.[1]
    const tag = new RegExp(`<(input|textarea|select)[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? ''
    return tag
  }
  expect(control('Due date')).toMatch(/type="date" .*name="dueDate" .*value="2026-12-03"/)
  expect(control('Title')).toMatch(/name="text"/)
  expect(control('Title')).toMatch(/value="Draft the agenda"/)
  expect(control('Title')).toMatch(/required="" .*minLength="3" maxLength="200"/)
  expect(control('Details')).toMatch(/<textarea[^>]*name="details"[^>]*maxLength="500"/)
  expect(control('Reference link')).toMatch(/type="url"[^>]*value="https:\/\/example.com\/agenda"/)
  expect(control('Priority')).toMatch(/<select[^>]*name="priority"/)
  expect(html).toMatch(/<option value="high" selected="">/)
  expect(control('Status')).toMatch(/<select[^>]*name="status"/)
  expect(html).toMatch(/<option value="In Progress" selected="">/)
  expect(control('Hours')).toMatch(/type="number" min="1" max="8" step="1" name="hrs" value="3"/)
  // Blank forms show hints; a task being edited has its own words.
  expect(html).not.toContain('placeholder="')
})

/**
 * Every control of the form against what the schema itself says of its field (its JSON Schema,
 * as zod derives it): a field the browser is told less or more than the server checks fails here,
 * whichever of the two changed.
 */
test('each control of the form carries exactly the limits the schema sets for its field', () => {
  const html = renderToStaticMarkup(
    <TaskForm
      fields={plainTaskFields('edit', {
        text: 'Draft the agenda',
        details: null,
        refLink: null,
        priority: 'high',
        status: 'In Progress',
        hrs: 3,
        dueDate: null,
      })}
      priorities={['high', 'medium', 'low']}
      statuses={['Not Started', 'In Progress', 'Completed']}
    />,
  )
  const schema = z.toJSONSchema(TaskFieldsSchema, { io: 'input' }) as {
    properties: Record<string, Record<string, unknown>>
    required: string[]
  }
  const controls = [...html.matchAll(/<(?:input|textarea|select)\b[^>]*>/g)].map(([tag]) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, value])),
  )
  expect(controls.map((control) => control.name)).toEqual([
    'text',
    'details',
    'refLink',
    'priority',
    'status',
    'hrs',
    'dueDate',
  ])
  for (const control of controls) {
    const field = schema.properties[control.name ?? ''] ?? {}
    const number = (value: string | undefined) => (value === undefined ? undefined : Number(value))
    expect({
      name: control.name,
      required: control.required !== undefined,
      minLength: number(control.minLength),
      maxLength: number(control.maxLength),
      min: number(control.min),
      max: number(control.max),
      step: number(control.step),
    }).toEqual({
      name: control.name,
      required: schema.required.includes(control.name ?? ''),
      minLength: field.minLength,
      maxLength: field.maxLength,
      min: field.minimum,
      max: field.maximum,
      step: field.multipleOf,
    })
  }
})
