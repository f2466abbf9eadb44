import http from 'node:http'
import https from 'node:https'
import { Webhook } from 'standardwebhooks'
import { checkedLookup, type Resolver, refuseEndpointUrl, systemResolver } from './addresses.server'

/**
 * One attempt at one message: signed by the Standard Webhooks scheme (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` of `id.timestamp.body`), POSTed
 * through node:http with the checked `lookup` (addresses.server.ts), never following a redirect,
 * given up after `timeoutMs`, and reading no more of the answer than its excerpt.
 */

const DELIVERY_TIMEOUT_MS = 10_000
/** How much of an answer's body is read and kept: enough to see an error message. */
const EXCERPT_BYTES = 512

export type SendOptions = {
  /** WEBHOOKS_ALLOW_PRIVATE. */
  allowPrivate: boolean
  /** DNS; tests hand in their own so that no name needs the internet. */
  resolve?: Resolver
  timeoutMs?: number
}

export type Attempt = {
  isSuccess: boolean
  /** The answer's HTTP status; null when none came (refused, unreachable, timed out). */
  status: number | null
  durationMs: number
  excerpt: string
}

function signedHeaders(secret: string, messageId: string, body: string, at = new Date()) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  }
}

export async function sendMessage(
  target: { url: string; secret: string },
  message: { id: string; body: string },
  { allowPrivate, resolve = systemResolver, timeoutMs = DELIVERY_TIMEOUT_MS }: SendOptions,
): Promise<Attempt> {
  const started = performance.now()
  const done = (attempt: Omit<Attempt, 'durationMs'>): Attempt => ({
    ...attempt,
    durationMs: Math.round(performance.now() - started),
  })
  // An address literal never reaches `lookup`: it is judged here, at every attempt.
  const refusal = refuseEndpointUrl(target.url, allowPrivate)
  if (refusal) return done({ isSuccess: false, status: null, excerpt: refusal })
  const url = new URL(target.url)
  const client = url.protocol === 'https:' ? https : http
  return new Promise<Attempt>((settle) => {
    let isSettled = false
    const finish = (attempt: Omit<Attempt, 'durationMs'>) => {
      if (isSettled) return
      isSettled = true
      clearTimeout(timer)
      request.destroy()
      settle(done(attempt))
    }
    const request = client.request(url, {
      method: 'POST',
      // A fresh connection each time: a pooled socket would skip the lookup that checks the address.
      agent: false,
      lookup: checkedLookup(resolve, allowPrivate),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Threadwork-Webhooks/1.0',
        ...signedHeaders(target.secret, message.id, message.body),
      },
    })
    const timer = setTimeout(
      () => finish({ isSuccess: false, status: null, excerpt: `No answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    )
    request.on('error', (error) => finish({ isSuccess: false, status: null, excerpt: error.message }))
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      const settleWithBody = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8')
        const isRedirect = status >= 300 && status < 400
        finish({
          isSuccess: status >= 200 && status < 300,
          status,
          excerpt: isRedirect ? `Redirect to ${response.headers.location ?? '?'} not followed` : excerpt,
        })
      }
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        size += chunk.length
        if (size >= EXCERPT_BYTES) settleWithBody()
      })
      response.on('end', settleWithBody)
      response.on('error', settleWithBody)
    })
    request.end(message.body)
  })
}
