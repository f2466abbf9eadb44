import { handleForm, type IntentChanges } from '~/http/form-action.server'
import { redirectWithToast, type ToastInput } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import type { z } from '~/utils/zod'

type Input<Schema extends z.ZodType> = z.output<Schema>

/** One change per console form (`intent`), as handleForm takes them, ending in a toast or a response. */
type AdminChanges<Schema extends z.ZodType<{ intent: string }>> = {
  [Name in Input<Schema>['intent']]: (
    input: Extract<Input<Schema>, { intent: Name }>,
  ) => Promise<ToastInput | Response>
}

/**
 * Every console action's shape, on the one form helper: the form parsed with its page's intents,
 * the intent's change called, and back to the page with its toast (a page of its own without
 * JavaScript), or the refusal shown above the page's content. The admin was checked before
 * (requireAdmin).
 */
export async function adminAction<Schema extends z.ZodType<{ intent: string }>>(
  request: Request,
  schema: Schema,
  backTo: string,
  changes: AdminChanges<Schema>,
) {
  // Each change ends back on the page with its toast. Object.fromEntries forgets the keys, which
  // are still the intents of `changes`: hence the cast.
  const backWithToast = Object.fromEntries(
    Object.entries<(input: never) => Promise<ToastInput | Response>>(changes).map(([intent, change]) => [
      intent,
      async (input: never) => {
        const done = await change(input)
        return done instanceof Response ? done : redirectWithToast(backTo, done)
      },
    ]),
  ) as unknown as IntentChanges<Schema, Response>
  return handleForm(await readFormData(request), schema, backWithToast, {
    refusal: (refusal) => ({ refusal }),
  })
}
