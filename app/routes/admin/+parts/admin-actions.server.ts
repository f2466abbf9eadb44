import { handleForm } from '~/http/form-action.server'
import { redirectWithToast, type ToastInput } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'

/**
 * Every console action's shape, on the one form helper: the form parsed with its page's intents,
 * the service called, and back to the page with a toast (a page of its own without JavaScript),
 * or the refusal shown above the page's content. The admin was checked before (requireAdmin).
 */
export async function adminAction<Schema extends z.ZodType<{ intent: string }>>(
  request: Request,
  schema: Schema,
  backTo: string,
  change: (input: z.output<Schema>) => Promise<ToastInput | Response>,
) {
  return handleForm(
    await readFormData(request),
    schema,
    async (input) => {
      const done = await change(input)
      return done instanceof Response ? done : redirectWithToast(backTo, done)
    },
    { refusal: (refusal) => ({ refusal }) },
  )
}
