import { fc } from '@fast-check/vitest'
import { CSRF_FIELD } from '~/auth/csrf.server'
import { PRIORITIES, REACTION_TYPES, STATUSES } from '~/domain/constants'
import { THEMES } from '~/theme'
import { TEST_PASSWORD } from '../helpers/factories'
import type { Example, FormActionRoute } from '../helpers/form-actions'
import { TEST_ORIGIN } from '../helpers/route'

/**
 * What the form-action fuzz suite sends: request shapes (method, address, where the CSRF token
 * goes, Origin, body) generated per route, and their encoding into a real body. Bodies start
 * from the route's own examples with a few edits, or from nothing; values are plausible, odd
 * (control characters, lone surrogates, percent signs) or huge; names include prototype keys.
 */

/** Stand-ins for rows that exist only once a run has set itself up; replaced just before sending. */
const PLACEHOLDERS = [
  '$ownId',
  '$ownTask',
  '$othersTask',
  '$ownComment',
  '$othersComment',
  '$ownSession',
  '$othersSession',
  '$ownEmail',
  '$othersEmail',
  '$newEmail',
] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
]

const INTENTS = [
  'update',
  'set-status',
  'share',
  'set-public',
  'delete',
  'add',
  'edit',
  'react',
  'update-profile',
  'change-password',
  'revoke-session',
  'revoke-other-sessions',
  'revoke-all-sessions',
  'delete-account',
]

/** Values a real form might send, so some bodies get past validation and into the services. */
const plausible = fc.constantFrom(
  ...INTENTS,
  ...STATUSES,
  ...PRIORITIES,
  ...REACTION_TYPES,
  ...THEMES,
  ...PLACEHOLDERS,
  TEST_PASSWORD,
  'a long enough password',
  'delete my account',
  'on',
  'true',
  'false',
  '1',
  '0',
  '2.5',
  'A task',
  'A comment that is long enough',
  'Ada Lovelace',
  'https://example.test/a.png',
  '/task?task=1',
  '//evil.example',
  '/.//evil.example',
  '/\t/evil.example',
  'javascript:alert(1)',
  'github',
  'google',
  'someone@example.test',
  'not an e-mail',
)

const odd = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\r\n',
  '\t',
  '\u0007',
  '\u007f',
  '%',
  '%00',
  '%zz',
  '+',
  '&',
  '=',
  '&=&',
  '\uD800',
  '\uDFFF',
  'a\uD800b',
  '\uFEFF',
  '\u202E',
  '\uFF0F\uFF0Fevil.example',
  '\u{1F44D}',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '-0',
  '9'.repeat(400),
  '[]',
  '{}',
  '[object Object]',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
)

const huge = fc
  .tuple(
    fc.integer({ min: 5_000, max: 200_000 }),
    fc.constantFrom('x', 'é', '\u{1F600}', '%', '\u0000', '\uD800'),
  )
  .map(([length, unit]) => unit.repeat(length))

const fieldValue = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 3, arbitrary: odd },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: huge },
)

function fieldName(route: FormActionRoute) {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(route.fields.length > 0 ? route.fields : ['intent'])) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, 'csrf', 'intent[]', 'a.b', '', 'redirect') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  )
}

type Value = string | boolean | null
type Entry = [name: string, value: Value]
type Upload = { filename: string; type: string; bytes: Uint8Array }

const asEntries = (example: Example): Entry[] =>
  Object.entries(example).flatMap(([name, value]): Entry[] =>
    Array.isArray(value) ? value.map((item): Entry => [name, item]) : [[name, value]],
  )

/** One of the route's real bodies, then up to three edits: a field dropped, changed, added or doubled. */
function editedExample(route: FormActionRoute): fc.Arbitrary<Entry[]> {
  const edit = fc.oneof(
    fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fieldValue }),
    fc.record({ op: fc.constant('add' as const), name: fieldName(route), value: fieldValue }),
    fc.record({ op: fc.constant('double' as const), at: fc.nat() }),
  )
  return fc
    .tuple(fc.constantFrom(...route.examples), fc.array(edit, { maxLength: 3 }))
    .map(([example, edits]) => {
      const entries = asEntries(example)
      for (const change of edits) {
        const index = 'at' in change && entries.length > 0 ? change.at % entries.length : -1
        const entry = entries[index]
        if (change.op === 'add') entries.push([change.name, change.value])
        else if (!entry) continue
        else if (change.op === 'drop') entries.splice(index, 1)
        else if (change.op === 'set') entries[index] = [entry[0], change.value]
        else entries.push([...entry])
      }
      return entries
    })
}

function entries(route: FormActionRoute): fc.Arbitrary<Entry[]> {
  return fc.oneof(
    { weight: 3, arbitrary: editedExample(route) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fieldName(route), fieldValue), { maxLength: 12 }) },
  )
}

type Body =
  | { kind: 'urlencoded'; entries: Entry[] }
  | { kind: 'raw-urlencoded'; text: string }
  | { kind: 'multipart'; entries: Entry[]; files: [string, Upload][] }
  | { kind: 'raw-multipart'; text: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'other'; contentType: string | null; bytes: Uint8Array }
  | { kind: 'none' }

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'text/html; charset=utf-8',
  'application/xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="unterminated',
  'multipart/mixed; boundary=x',
  'APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-16',
  ';',
  '',
  'application/x-www-form-urlencoded, multipart/form-data',
]

const upload = fc.record({
  filename: fc.constantFrom('a.txt', '', '../../etc/passwd', 'a"b.png', '\u0000.bin', 'é.txt'),
  type: fc.constantFrom('text/plain', 'application/octet-stream', 'image/png', ''),
  bytes: fc.uint8Array({ maxLength: 64 }),
})

/** Multipart text a client writes by hand: real parts, broken ones, odd headers. */
const rawMultipart = (route: FormActionRoute) =>
  fc
    .array(
      fc.oneof(
        fc
          .tuple(fieldName(route), fieldValue)
          .map(
            ([name, value]) => `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
          ),
        fc.constantFrom(
          '--fuzz\r\nContent-Disposition: form-data\r\n\r\nno name\r\n',
          '--fuzz\r\nContent-Disposition: form-data; name="a"; filename*=UTF-8\'\'%E2%82%AC.txt\r\n\r\nx\r\n',
          '--fuzz\r\n\r\nno headers\r\n',
          '--fuzz\r\nContent-Disposition: form-data; name="a"\r\n',
          `--fuzz\r\nX-Long: ${'h'.repeat(10_000)}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n`,
          '--other\r\n',
        ),
      ),
      { maxLength: 6 },
    )
    .chain((parts) => fc.constantFrom('--fuzz--\r\n', '', '--fuzz').map((end) => parts.join('') + end))

const URLENCODED_FRAGMENTS = fc.constantFrom(
  '&',
  '=',
  '%',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%AF',
  '%G1',
  '+',
  '&&',
  '==',
  ';',
)

/** Fields as JSON: one value per name, a repeated name becomes an array, as a JSON client writes them. */
function toObject(list: Entry[]) {
  const object: Record<string, unknown> = {}
  for (const [name, value] of list) {
    const existing = Object.hasOwn(object, name) ? object[name] : undefined
    const merged =
      existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]
    Object.defineProperty(object, name, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return object
}

function body(route: FormActionRoute): fc.Arbitrary<Body> {
  // Most bodies are of the kind the route reads, so they reach its code; the rest are wrong on purpose.
  const weights = {
    form: { urlencoded: 6, multipart: 3, json: 1 },
    json: { urlencoded: 1, multipart: 1, json: 8 },
    nothing: { urlencoded: 2, multipart: 1, json: 1 },
  }[route.reads]
  return fc.oneof(
    {
      weight: weights.urlencoded,
      arbitrary: entries(route).map((list) => ({ kind: 'urlencoded' as const, entries: list })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.oneof(URLENCODED_FRAGMENTS, fieldName(route), fc.string({ maxLength: 10 })), {
          maxLength: 20,
        })
        .map((parts) => ({ kind: 'raw-urlencoded' as const, text: parts.join('') })),
    },
    {
      weight: weights.multipart,
      arbitrary: fc
        .record({
          entries: entries(route),
          files: fc.array(fc.tuple(fieldName(route), upload), { maxLength: 3 }),
        })
        .map((parts) => ({ kind: 'multipart' as const, ...parts })),
    },
    { weight: 1, arbitrary: rawMultipart(route).map((text) => ({ kind: 'raw-multipart' as const, text })) },
    {
      weight: weights.json,
      arbitrary: fc
        .oneof(
          { weight: 4, arbitrary: entries(route).map(toObject) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
          {
            weight: 1,
            arbitrary: fc.constant(
              JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'),
            ),
          },
        )
        .map((value) => ({ kind: 'json' as const, value })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: null }),
          bytes: fc.uint8Array({ maxLength: 200 }),
        })
        .map((other) => ({ kind: 'other' as const, ...other })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  )
}

export type Shape = {
  method: string
  target: number
  token: 'header' | 'field' | 'none' | 'forged'
  origin: string | null
  body: Body
}

export function shape(route: FormActionRoute): fc.Arbitrary<Shape> {
  return fc.record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
    target: fc.nat({ max: route.targets.length - 1 }),
    token: fc.constantFrom('header', 'header', 'header', 'field', 'field', 'field', 'none', 'forged'),
    origin: fc.constantFrom(
      null,
      null,
      null,
      null,
      TEST_ORIGIN,
      TEST_ORIGIN,
      TEST_ORIGIN,
      'https://evil.example',
      'null',
    ),
    body: body(route),
  })
}

/** Who sends a shape: their CSRF token, and the values the `$…` placeholders stand for. */
export type Sender = { csrf: string; values: Record<Placeholder, string> }

export function encode({ body: shaped, token }: Shape, { csrf: csrfToken, values }: Sender) {
  const fill = (value: Value) =>
    typeof value === 'string' && Object.hasOwn(values, value) ? values[value as Placeholder] : value
  const text = (value: Value) => String(fill(value) ?? '')
  const csrf: Entry[] = token === 'field' ? [[CSRF_FIELD, csrfToken]] : []
  switch (shaped.kind) {
    case 'urlencoded': {
      const params = new URLSearchParams()
      for (const [name, value] of [...csrf, ...shaped.entries]) params.append(name, text(value))
      return { body: params.toString(), contentType: 'application/x-www-form-urlencoded' }
    }
    case 'raw-urlencoded': {
      const prefix = token === 'field' ? `csrf=${encodeURIComponent(csrfToken)}&` : ''
      return { body: prefix + shaped.text, contentType: 'application/x-www-form-urlencoded' }
    }
    case 'multipart': {
      const form = new FormData()
      for (const [name, value] of [...csrf, ...shaped.entries]) form.append(name, text(value))
      for (const [name, file] of shaped.files) {
        form.append(name, new Blob([Uint8Array.from(file.bytes)], { type: file.type }), file.filename)
      }
      return { body: form, contentType: null }
    }
    case 'raw-multipart': {
      const prefix =
        token === 'field'
          ? `--fuzz\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrfToken}\r\n`
          : ''
      return { body: prefix + shaped.text, contentType: 'multipart/form-data; boundary=fuzz' }
    }
    case 'json': {
      const json = JSON.stringify(shaped.value, (_key, value) => fill(value as Value) ?? value) ?? 'null'
      return { body: json, contentType: 'application/json' }
    }
    case 'other':
      return { body: Uint8Array.from(shaped.bytes), contentType: shaped.contentType }
    case 'none':
      return { body: undefined, contentType: null }
  }
}
