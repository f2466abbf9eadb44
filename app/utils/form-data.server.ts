import { data } from 'react-router'

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

export const NOT_A_FORM_MESSAGE =
  'This address takes a form: send application/x-www-form-urlencoded or multipart/form-data.'
export const UNREADABLE_FORM_MESSAGE = 'The form data could not be read.'

// One parse per request: the CSRF check and the action read the same FormData.
const forms = new WeakMap<Request, Promise<FormData>>()

/**
 * The form a request carries, parsed once however many times it is asked for: the CSRF check
 * looks for its hidden field and the action then reads its fields, and a body must never be
 * buffered twice. React Router hands middleware and actions the very same Request, so it is the
 * key. A body that is not a form is the client's mistake and answers 415; a form that cannot be
 * parsed (a broken multipart body) answers 400; neither is a server error.
 */
export function readFormData(request: Request): Promise<FormData> {
  let form = forms.get(request)
  if (!form) {
    form = parseForm(request)
    forms.set(request, form)
  }
  return form
}

async function parseForm(request: Request) {
  const mediaType = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (!FORM_TYPES.has(mediaType)) throw data(NOT_A_FORM_MESSAGE, { status: 415 })
  // Whoever read the body already bypassed this reader: a bug here, not the client's fault.
  if (request.bodyUsed) throw new Error('The request body was read before readFormData')
  try {
    return await request.formData()
  } catch {
    throw data(UNREADABLE_FORM_MESSAGE, { status: 400 })
  }
}
