import { z } from '~/utils/zod'

/**
 * The contact form, checked in the browser (conform) and again in the action. Messages are what
 * the visitor reads next to the field.
 */
export const SupportMessageSchema = z.object({
  name: z
    .string({ error: 'Please tell us your name' })
    .trim()
    .min(1, 'Please tell us your name')
    .max(100, 'Your name must be at most 100 characters'),
  email: z
    .string({ error: 'Please give an e-mail address we can answer' })
    .trim()
    .max(254, 'That e-mail address is too long')
    .pipe(z.email('Please give a valid e-mail address')),
  message: z
    .string({ error: 'Please write your message' })
    .trim()
    .min(10, 'Please write at least 10 characters')
    .max(5000, 'Please keep your message under 5,000 characters'),
})
