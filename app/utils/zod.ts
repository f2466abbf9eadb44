import { z } from 'zod'

/**
 * The app's one import of zod: every schema imports `z` from here, never from 'zod' (lint keeps it
 * so). zod 4 compiles object parsers with `new Function` unless told not to, and its probe for
 * that runs when a schema is built — in the browser, while the page's modules load. The nonce
 * Content-Security-Policy forbids eval, so each probe was reported as a CSP violation. Jitless
 * mode never probes. Because every schema module imports this one, ES module order runs this
 * line before any schema exists, in every bundle and on the server alike.
 */
z.config({ jitless: true })

export { z }

/**
 * An object schema less the fields one entry point withholds (an MCP tool, an assistant's tool),
 * each named with its reason. The entry point takes every other field, so a field added to the
 * schema reaches it too: its input is its service's schema by omission, never a `.pick` of the
 * fields known today.
 */
export function withholding<Shape extends z.ZodRawShape, Key extends keyof Shape & string>(
  schema: z.ZodObject<Shape>,
  reasons: Record<Key, string>,
): z.ZodObject<Omit<Shape, Key>> {
  const mask: Record<string, true> = Object.fromEntries(Object.keys(reasons).map((key) => [key, true]))
  // zod types a mask by keys known where it is written; these come from `reasons`, typed above.
  return (schema as z.ZodObject).omit(mask) as unknown as z.ZodObject<Omit<Shape, Key>>
}
