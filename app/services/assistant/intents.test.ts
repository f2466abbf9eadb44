import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import { recogniseIntent } from './intents'

/** The built-in assistant's understanding: each intent from the words people use for it. */

describe('recogniseIntent', () => {
  test.each([
    ['How many tasks do I have?', { kind: 'count' }],
    ['Show me my stats', { kind: 'count' }],
    ['What is in progress?', { kind: 'list', status: 'In Progress' }],
    ['What am I working on', { kind: 'list', status: 'In Progress' }],
    ['List my high priority tasks', { kind: 'list', priority: 'high' }],
    ['show my tasks', { kind: 'list' }],
    ['which tasks are done?', { kind: 'list', status: 'Completed' }],
    ['Find tasks about invoices', { kind: 'search', query: 'invoices' }],
    ['search for "quarterly report"', { kind: 'search', query: 'quarterly report' }],
    ['Summarise my week', { kind: 'week' }],
    ['What is due this week?', { kind: 'due', due: 'week' }],
    ['what is due today', { kind: 'due', due: 'today' }],
    ['What is overdue?', { kind: 'due', due: 'overdue' }],
    ['What is assigned to me?', { kind: 'due', assignedToMe: true }],
    ['what is assigned to me and due this week', { kind: 'due', due: 'week', assignedToMe: true }],
    ['What do the docs say about sharing?', { kind: 'docs', query: 'sharing' }],
    ['How do I deploy to Fly?', { kind: 'docs', query: 'deploy Fly' }],
    ['Create a task called Write the report', { kind: 'create', title: 'Write the report' }],
    ['add a high priority task: Call Bob', { kind: 'create', title: 'Call Bob', priority: 'high' }],
    [
      'Mark "Write the report" as done',
      { kind: 'set-status', query: 'Write the report', status: 'Completed' },
    ],
    [
      'move Fix the login bug to in progress',
      { kind: 'set-status', query: 'Fix the login bug', status: 'In Progress' },
    ],
    ['Hello!', { kind: 'help' }],
  ])('%j', (message, intent) => {
    expect(recogniseIntent(message)).toEqual(intent)
  })

  fcTest.prop([fc.string({ maxLength: 500 })])('any message gets an intent, never an error', (message) => {
    expect(recogniseIntent(message).kind).toBeTypeOf('string')
  })
})
