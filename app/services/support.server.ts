import type { Database } from '~/db/client.server'
import { queueEmail } from '~/email/outbox.server'
import { consumeRateLimit, type RateLimitRule } from './rate-limit.server'

/** A visitor's message to support, already validated by the form's schema. */
export type SupportMessage = {
  name: string
  email: string
  message: string
}

/** Enough for anyone with a real question; too few to flood the support inbox from one address. */
const SUPPORT_MESSAGE_LIMIT: RateLimitRule = {
  limit: 5,
  windowMs: 60 * 60 * 1000,
  message: 'You have sent several messages in the last hour. Please wait a while before sending another.',
}

/**
 * Queues a visitor's message for the support inbox. The visitor's address goes into the body (the
 * outbox has no Reply-To), so whoever answers sees whom to write back to. Counted per client IP,
 * since visitors are not signed in; only messages that passed validation count.
 */
export async function sendSupportMessage(
  db: Database,
  message: SupportMessage,
  { supportEmail, clientIp, now = Date.now() }: { supportEmail: string; clientIp: string; now?: number },
) {
  await consumeRateLimit(db, `support:ip:${clientIp}`, SUPPORT_MESSAGE_LIMIT, now)
  return queueEmail(db, { to: supportEmail, ...supportEmailContent(message) })
}

function supportEmailContent({ name, email, message }: SupportMessage) {
  // The name lands in a mail header: a line break there would let a visitor add headers.
  const subject = `Support request from ${singleLine(name)}`
  const text = [
    `From: ${name} <${email}>`,
    `Reply to: ${email}`,
    '',
    message,
    '',
    '— Sent with the contact form at /support',
  ].join('\n')
  const html = [
    `<p><strong>From:</strong> ${escapeHtml(name)} &lt;<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>&gt;</p>`,
    `<p><strong>Reply to:</strong> ${escapeHtml(email)}</p>`,
    `<div style="white-space:pre-wrap">${escapeHtml(message)}</div>`,
    '<p style="color:#666">— Sent with the contact form at /support</p>',
  ].join('\n')
  return { subject, text, html }
}

function singleLine(value: string) {
  return value.replace(/[\r\n\t]+/g, ' ').trim()
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Visitor text is data, never markup, in the HTML part of the e-mail. */
function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)
}
