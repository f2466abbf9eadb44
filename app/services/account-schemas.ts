import { z } from '~/utils/zod'

/**
 * The account forms' schemas, shared by the HTML forms (conform), the /api/auth JSON API and the
 * services. Messages are what people read next to the field.
 */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

export const EmailSchema = z
  .string({ error: 'E-mail is required' })
  .trim()
  .min(1, 'E-mail is required')
  .max(254, 'E-mail is too long')
  .pipe(z.email('Enter a valid e-mail address'))
  .transform((email) => email.toLowerCase())

export const PasswordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)

export const NameSchema = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters')

export const ImageUrlSchema = z
  .url({ protocol: /^https?$/, error: 'Image must be an http(s) URL' })
  .max(2048, 'Image URL is too long')

/**
 * Where to go afterwards, as the form sent it. Whether it may be followed is decided on the server
 * by `safeRedirect` (app/utils/redirect.server.ts), the one check of redirect targets: a second,
 * different check here is how open redirects slip through.
 */
export const ReturnAddressSchema = z.string().optional()

export const SignUpSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  redirect: ReturnAddressSchema,
})

export const SignInSchema = z.object({
  email: EmailSchema,
  // Any length may sign in: the minimum applies to new passwords, not to old ones.
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH),
  redirect: ReturnAddressSchema,
})

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

export const ResetPasswordSchema = z
  .object({
    token: z
      .string({ error: 'The reset link is missing its token' })
      .min(1, 'The reset link is missing its token'),
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Repeat the new password' }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  })

export const UpdateProfileSchema = z.object({
  name: NameSchema,
  image: z.preprocess((value) => (value === '' ? undefined : value), ImageUrlSchema.optional()),
})

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().optional(),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: 'Repeat the new password' }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  })

export const DELETE_ACCOUNT_PHRASE = 'delete my account'

export const DeleteAccountSchema = z.object({
  password: z.string().optional(),
  confirmation: z.string().optional(),
})
