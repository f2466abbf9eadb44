import { type Notice, noticeNoun } from '~/utils/notices'
import type { OutgoingEmail } from './outbox.server'

/** Escapes text for HTML e-mail bodies; every interpolated value goes through it. */
function escapeHtml(value: string) {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

type Layout = {
  preheader: string
  heading: string
  paragraphs: string[]
  /** A list of links after the paragraphs (the tasks a reminder names), each its own line in the text part. */
  links?: { text: string; url: string }[]
  action?: { label: string; url: string }
  footer?: string
}

/** One plain, accessible layout for every e-mail, with a matching text part. */
function render(to: string, subject: string, layout: Layout): OutgoingEmail {
  const paragraphs = layout.paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('')
  const links = layout.links?.length
    ? `<ul style="margin:0 0 16px;padding-left:20px">${layout.links.map((link) => `<li style="margin:0 0 8px"><a href="${escapeHtml(link.url)}" style="color:#4f46e5">${escapeHtml(link.text)}</a></li>`).join('')}</ul>`
    : ''
  const action = layout.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(layout.action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(layout.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555">Or paste this link into your browser: ${escapeHtml(layout.action.url)}</p>`
    : ''
  const footer = layout.footer
    ? `<p style="margin:32px 0 0;font-size:12px;color:#777">${escapeHtml(layout.footer)}</p>`
    : ''
  const html = `<!doctype html><html lang="en"><body style="margin:0;padding:24px;background:#f6f6f9;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937"><span style="display:none">${escapeHtml(layout.preheader)}</span><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:32px"><h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(layout.heading)}</h1>${paragraphs}${links}${action}${footer}<p style="margin:32px 0 0;font-size:12px;color:#777">Threadwork</p></div></body></html>`
  const text = [
    layout.heading,
    '',
    ...layout.paragraphs.flatMap((p) => [p, '']),
    ...(layout.links?.length ? [...layout.links.map((link) => `- ${link.text}: ${link.url}`), ''] : []),
    ...(layout.action ? [`${layout.action.label}: ${layout.action.url}`, ''] : []),
    ...(layout.footer ? [layout.footer, ''] : []),
    '— Threadwork',
  ].join('\n')
  return { to, subject, html, text }
}

export function verifyEmailMessage(to: string, name: string, url: string) {
  return render(to, 'Verify your e-mail address', {
    preheader: 'Confirm your address to finish setting up Threadwork.',
    heading: `Welcome${name ? `, ${name}` : ''}!`,
    paragraphs: [
      'Confirm that this is your e-mail address to finish setting up your Threadwork account.',
      'Tasks shared with this address and mentions reach you once it is verified.',
    ],
    action: { label: 'Verify e-mail address', url },
    footer: 'The link works once and expires in 1 hour. If you did not sign up, ignore this e-mail.',
  })
}

export function resetPasswordMessage(to: string, url: string) {
  return render(to, 'Reset your Threadwork password', {
    preheader: 'A link to choose a new password.',
    heading: 'Reset your password',
    paragraphs: [
      'Someone (hopefully you) asked to reset the password of the Threadwork account for this address.',
    ],
    action: { label: 'Choose a new password', url },
    footer:
      'The link works once and expires in 1 hour. Setting a new password signs out every device. If you did not ask for this, ignore this e-mail: your password stays as it is.',
  })
}

export function passwordChangedMessage(to: string) {
  return render(to, 'Your Threadwork password was changed', {
    preheader: 'Your password was just changed.',
    heading: 'Your password was changed',
    paragraphs: [
      'The password of your Threadwork account was just changed and every other session was signed out.',
      'If this was not you, reset your password right away and contact support.',
    ],
  })
}

/** One mention (or assignment: no excerpt of its own to quote) as its e-mail lists it. */
export type MentionSummary = Notice & {
  fromUserName: string
  taskText: string
  excerpt: string
}

function mentionLine(mention: MentionSummary) {
  return mention.type === 'assignment'
    ? `${mention.fromUserName} assigned you “${mention.taskText}”`
    : `${mention.fromUserName} on “${mention.taskText}”: “${mention.excerpt}”`
}

/** The single notice's subject and heading: who mentioned, or who assigned. */
function singleNotice(mention: MentionSummary) {
  return mention.type === 'assignment'
    ? { subject: `${mention.fromUserName} assigned you a task on Threadwork`, heading: mentionLine(mention) }
    : {
        subject: `${mention.fromUserName} mentioned you on Threadwork`,
        heading: `${mention.fromUserName} mentioned you`,
      }
}

/** Several notices: counted as mentions while they all are, else as notifications. */
function severalSubject(mentions: MentionSummary[]) {
  return mentions.some((mention) => mention.type === 'assignment')
    ? `You have ${mentions.length} new ${noticeNoun(mentions)} on Threadwork`
    : `You were mentioned ${mentions.length} times on Threadwork`
}

/** Mentions listed in one e-mail; the rest are counted, and all of them wait in the inbox. */
const MENTION_EMAIL_LIST_LIMIT = 10

/**
 * The mentions someone missed while away, in one e-mail: who, on which task, what they wrote.
 * It links to the inbox, where each mention opens its task.
 */
export function mentionEmailMessage(
  to: string,
  mentions: MentionSummary[],
  links: { inbox: string; settings: string },
) {
  const [first] = mentions
  const isSingle = mentions.length === 1 && first !== undefined
  const listed = mentions.slice(0, MENTION_EMAIL_LIST_LIMIT)
  const more = mentions.length - listed.length
  const single = isSingle ? singleNotice(first) : undefined
  return render(to, single ? single.subject : severalSubject(mentions), {
    preheader: isSingle
      ? `${first.fromUserName}: ${first.excerpt}`
      : `${noticeNoun(mentions) === 'mentions' ? 'Mentions' : 'Notifications'} that came in while you were away.`,
    heading: single ? single.heading : `${mentions.length} new ${noticeNoun(mentions)}`,
    paragraphs: [...listed.map(mentionLine), ...(more > 0 ? [`…and ${more} more.`] : [])],
    action: { label: 'Open your notifications', url: links.inbox },
    footer: `You get this e-mail when someone mentions you or assigns you a task while you are away, once per batch. To stop these e-mails, untick "E-mail me when I'm mentioned" in your settings: ${links.settings}`,
  })
}

/** One task as a due-date reminder lists it. */
export type DueTaskSummary = { text: string; url: string }

/**
 * The tasks due today for one person, in one e-mail, each linked to where it opens. `day` is
 * the date as the person reads it ("Thursday, December 3").
 */
export function dueReminderMessage(
  to: string,
  due: DueTaskSummary[],
  day: string,
  links: { tasks: string; settings: string },
) {
  const [first] = due
  const isSingle = due.length === 1 && first !== undefined
  return render(to, isSingle ? `Due today: ${first.text}` : `${due.length} tasks due today on Threadwork`, {
    preheader: isSingle
      ? `“${first.text}” is due today, ${day}.`
      : `${due.length} tasks are due today, ${day}.`,
    heading: isSingle ? 'A task is due today' : `${due.length} tasks are due today`,
    paragraphs: [`Due today, ${day}:`],
    links: due,
    action: { label: 'Open your tasks', url: links.tasks },
    footer: `You get this e-mail at 8:00 in your time zone on the day a task assigned to you, or one of yours that nobody is assigned, is due and not completed. To stop these e-mails, untick "E-mail me on the day a task is due" in your settings: ${links.settings}`,
  })
}

/** A buyer whose account the purchase created (or whose unverified one it secured) sets a password here. */
export function setPasswordMessage(to: string, url: string) {
  return render(to, 'Set your Threadwork password', {
    preheader: 'Your purchase is in your account: choose a password to sign in.',
    heading: 'Choose a password for your account',
    paragraphs: [
      'Your purchase is recorded in the Threadwork account for this e-mail address.',
      'Choose a password to sign in and see it. Setting it also confirms that this address is yours.',
    ],
    action: { label: 'Choose a password', url },
    footer:
      'The link works once and expires in 1 hour. Later, "Forgot your password?" on the sign-in page sends a new one.',
  })
}

/** The thank-you for a paid order: what was bought and where to find it. */
export function purchaseThankYouMessage(
  to: string,
  order: { planName: string; planLabel: string; amount: string },
  links: { billing: string },
) {
  return render(to, `Thank you for buying Threadwork ${order.planName}`, {
    preheader: `Your ${order.planName} ${order.planLabel.toLowerCase()} plan is active.`,
    heading: 'Thank you for your purchase!',
    paragraphs: [
      `You bought Threadwork ${order.planName} (${order.planLabel.toLowerCase()}) for ${order.amount}. Your plan is active now.`,
      'An invitation to the private GitHub repository follows: your billing page shows how far it got, and asks for your GitHub username if we do not know it yet.',
    ],
    action: { label: 'Open your billing page', url: links.billing },
    footer:
      'Receipts and the Stripe customer portal, where you manage payment details, are on the billing page.',
  })
}

/** A webhook endpoint the server paused after a day of failed deliveries. */
export function webhookPausedMessage(to: string, endpointUrl: string, settingsUrl: string) {
  return render(to, 'A Threadwork webhook endpoint was paused', {
    preheader: `Deliveries to ${endpointUrl} failed for a day.`,
    heading: 'Your webhook endpoint was paused',
    paragraphs: [
      `Deliveries to ${endpointUrl} kept failing for about a day, so Threadwork paused the endpoint and stopped sending it events.`,
      'Fix the receiver, then resume the endpoint and redeliver what it missed.',
    ],
    action: { label: 'Open the endpoint', url: settingsUrl },
  })
}

/** The new-sign-in alert: how, when and from what, and where to end that session. */
export function signInAlertMessage(
  to: string,
  sign: { method: string; at: Date; device: string },
  links: { settings: string },
) {
  const when = `${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(sign.at)} UTC`
  return render(to, 'New sign-in to your Threadwork account', {
    preheader: `A new sign-in from ${sign.device}.`,
    heading: 'New sign-in to your account',
    paragraphs: [
      `Your Threadwork account was just signed in to from a browser it had not been used from before.`,
      `Method: ${sign.method}. Time: ${when}. Browser: ${sign.device}.`,
      'If this was you, there is nothing to do. If not, end that session in your settings and change your password right away.',
    ],
    action: { label: 'Review your sessions', url: links.settings },
  })
}

/**
 * An invitation to a workspace: who invites, to which workspace, as what, and the page that
 * accepts it. Only the person who verified this address can open that page.
 */
export function workspaceInvitationMessage(
  to: string,
  invitation: { workspaceName: string; inviterName: string; role: 'admin' | 'member'; expiresInDays: number },
  url: string,
) {
  const { workspaceName, inviterName, role, expiresInDays } = invitation
  return render(to, `${inviterName} invited you to ${workspaceName} on Threadwork`, {
    preheader: `Join the workspace ${workspaceName} as ${role === 'admin' ? 'an admin' : 'a member'}.`,
    heading: `Join ${workspaceName} on Threadwork`,
    paragraphs: [
      `${inviterName} invited you to the workspace “${workspaceName}” as ${role === 'admin' ? 'an admin' : 'a member'}.`,
      `Sign in, or create an account, with this e-mail address (${to}) to accept or decline.`,
    ],
    action: { label: 'Open the invitation', url },
    footer: `The invitation expires in ${expiresInDays} days. If you do not know ${inviterName}, ignore this e-mail.`,
  })
}
