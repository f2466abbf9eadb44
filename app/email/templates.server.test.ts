import { expect, test } from 'vitest'
import { mentionEmailMessage, workspaceInvitationMessage } from './templates.server'

const links = { inbox: 'http://localhost/notifications', settings: 'http://localhost/settings' }
const mention = { fromUserName: 'Ada', taskText: 'Ship it', excerpt: 'look at this' }

test('missed mentions are counted as mentions', () => {
  const email = mentionEmailMessage('grace@example.test', [mention, mention], links)
  expect(email.subject).toBe('You were mentioned 2 times on Threadwork')
  expect(email.text).toContain('2 new mentions')
  expect(email.html).toContain('Mentions that came in while you were away.')
})

test('with an assignment among them, they are counted as notifications, and the footer names both', () => {
  const email = mentionEmailMessage(
    'grace@example.test',
    [mention, { ...mention, type: 'assignment' }],
    links,
  )
  expect(email.subject).toBe('You have 2 new notifications on Threadwork')
  expect(email.text).toContain('2 new notifications')
  expect(email.text).not.toContain('new mentions')
  expect(email.html).toContain('Notifications that came in while you were away.')
  expect(email.text).toContain('when someone mentions you or assigns you a task while you are away')
  expect(email.text).toContain('Ada assigned you “Ship it”')
})

test('a workspace invitation names who invites, where, as what, and when it expires; every value escaped in HTML', () => {
  const email = workspaceInvitationMessage(
    'dan@example.test',
    { workspaceName: 'R&D <lab>', inviterName: 'Olga', role: 'admin', expiresInDays: 7 },
    'http://localhost/invitations/abc',
  )
  expect(email.subject).toBe('Olga invited you to R&D <lab> on Threadwork')
  expect(email.text).toContain('Olga invited you to the workspace “R&D <lab>” as an admin.')
  expect(email.text).toContain('Open the invitation: http://localhost/invitations/abc')
  expect(email.text).toContain('The invitation expires in 7 days.')
  expect(email.html).toContain('R&amp;D &lt;lab&gt;')
  expect(email.html).not.toContain('<lab>')
  expect(email.html).toContain('href="http://localhost/invitations/abc"')
})
