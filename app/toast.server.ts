import { createCookieSessionStorage, redirect } from 'react-router'
import { env } from '~/env.server'
import { cookieAttributes } from '~/utils/cookies.server'
import { z } from '~/utils/zod'

/** A toast carried across a redirect in a signed, one-read cookie (flash). */
const ToastSchema = z.object({
  type: z.enum(['success', 'info', 'warning', 'error', 'default']).default('default'),
  title: z.string(),
  description: z.string().optional(),
  id: z.string().default(() => crypto.randomUUID()),
})

export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>

const FLASH_KEY = 'toast'

let storage: ReturnType<typeof createToastStorage> | undefined
function createToastStorage() {
  return createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: {
      name: 'tw_toast',
      ...cookieAttributes(),
      httpOnly: true,
      secrets: [env().SESSION_SECRET],
    },
  })
}
function toastStorage() {
  storage ??= createToastStorage()
  return storage
}

export async function toastCookieHeader(toast: ToastInput) {
  const session = await toastStorage().getSession()
  session.flash(FLASH_KEY, ToastSchema.parse(toast))
  return toastStorage().commitSession(session)
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', await toastCookieHeader(toast))
  return redirect(url, { ...init, headers })
}

/** Reads and consumes the pending toast; `headers` clears it when one was there. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookie = request.headers.get('Cookie')
  if (!cookie?.includes('tw_toast=')) return { toast: null, headers: null }
  const session = await toastStorage().getSession(cookie)
  const parsed = ToastSchema.safeParse(session.get(FLASH_KEY))
  const headers = new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) })
  return { toast: parsed.success ? parsed.data : null, headers }
}
