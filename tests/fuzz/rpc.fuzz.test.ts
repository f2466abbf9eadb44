import { createHash } from 'node:crypto'
import { fc, test } from '@fast-check/vitest'
import { type AnyProcedure, isProcedure } from '@orpc/server'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { CSRF_HEADER } from '~/auth/csrf.server'
import { database } from '~/db/client.server'
import { RPC_PREFIX } from '~/rpc/handler.server'
import { router } from '~/rpc/router.server'
import { serveApi } from '../helpers/api-door'
import { anonymousBrowser, signedInBrowser, type TestBrowser } from '../helpers/auth'
import {
  createComment,
  createMentionNotification,
  createTask,
  createUser,
  shareTask,
  TEST_PASSWORD,
} from '../helpers/factories'
import type { TestServer } from '../helpers/http-server'
import { type RawRequest, type RawResponse, requestOnce } from '../helpers/request-once'

/**
 * Fuzzing the JSON endpoints, every /api/rpc procedure and every /api/auth endpoint, over real HTTP
 * through the root middleware and the route modules, as anonymous visitors and as a signed-in
 * person with a valid `x-csrf-token` (and without one, and from a foreign Origin). Generated
 * requests: wrong types and encodings, huge and odd strings (lone surrogates, control
 * characters, 1 MB), prototype keys, deep nesting, oRPC envelopes with forged `meta`, wrong
 * content types (text, form, multipart, bytes, invalid JSON), every method React Router hands a
 * route (GET for mutations, PUT, PATCH, DELETE, HEAD), and malformed `?data=` for GET.
 *
 * What must hold for every one: no 5xx; a refusal (4xx) is JSON with a `code` and changes no
 * row (every table hashed before and after); a read changes no row whatever it answers; no
 * prototype is polluted.
 *
 * Seeded and bounded so the file takes seconds. To reproduce a failure, or to run longer:
 *   FUZZ_SEED=<seed printed by the failure> npx vitest run tests/fuzz/rpc.fuzz.test.ts
 *   FUZZ_RUNS=1000 FUZZ_SEED=$RANDOM npx vitest run tests/fuzz/rpc.fuzz.test.ts
 * FUZZ_RUNS is the number of generated requests per procedure or endpoint (default 15); a
 * thousand runs take about half an hour on two cores.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const RUNS = Number(process.env.FUZZ_RUNS ?? 15)
const TIMEOUT_MS = Math.max(60_000, RUNS * 2_000)

const db = database()
let server: TestServer

beforeAll(async () => {
  // A scratch database: durability on power loss is nothing to wait for, and writes get ~10x faster.
  await db.$client.execute('PRAGMA synchronous = OFF')
  server = await serveApi()
})

afterAll(() => server.close())

// ── The world a request may touch ──────────────────────────────────────────

/**
 * Rows the generated requests aim at (by placeholders in their bodies), so that they reach the
 * services and not only the parsers. A request may legitimately change or delete them (a
 * signed-in owner may delete her task): the world is rebuilt whenever a piece is gone.
 */
type World = {
  owner: { id: string; email: string }
  friend: { id: string; email: string }
  /** The owner's browser, signed in; replaced when a request ended its session. */
  ownerBrowser: TestBrowser & { session: { id: string } }
  taskId: string
  publicTaskId: string
  commentId: string
  notificationId: string
}

let world: World | null = null

/** Whether every row of the world is still there, in one statement. */
async function isWhole(current: World) {
  const result = await db.$client.execute({
    sql: `SELECT (SELECT count(*) FROM users WHERE id = ?) + (SELECT count(*) FROM tasks WHERE id IN (?, ?))
      + (SELECT count(*) FROM comments WHERE id = ?) + (SELECT count(*) FROM notifications WHERE id = ?) AS n`,
    args: [current.owner.id, current.taskId, current.publicTaskId, current.commentId, current.notificationId],
  })
  return Number(result.rows[0]?.n) === 5
}

async function hasSession(sessionId: string) {
  const result = await db.$client.execute({ sql: 'SELECT 1 FROM sessions WHERE id = ?', args: [sessionId] })
  return result.rows.length > 0
}

async function ensureWorld(): Promise<World> {
  if (world && (await isWhole(world))) {
    if (!(await hasSession(world.ownerBrowser.session.id))) {
      world.ownerBrowser = await signedInBrowser(db, world.owner.id)
    }
    return world
  }
  const owner = await createUser(db, { name: 'Fuzz Owner' })
  const friend = await createUser(db, { name: 'Fuzz Friend' })
  const task = await createTask(db, { userId: owner.id, text: 'A shared task' })
  await shareTask(db, task.id, [friend.email])
  const publicTask = await createTask(db, { userId: owner.id, text: 'A public task', isPublic: true })
  const comment = await createComment(db, { taskId: task.id, userId: friend.id, content: '@Fuzz Owner look' })
  const notification = await createMentionNotification(db, {
    recipientId: owner.id,
    taskId: task.id,
    commentId: comment.id,
    fromUserId: friend.id,
  })
  world = {
    owner,
    friend,
    ownerBrowser: await signedInBrowser(db, owner.id),
    taskId: task.id,
    publicTaskId: publicTask.id,
    commentId: comment.id,
    notificationId: notification.id,
  }
  return world
}

function placeholders(current: World): Record<string, string> {
  return {
    '@@TASK@@': current.taskId,
    '@@PUBLIC_TASK@@': current.publicTaskId,
    '@@COMMENT@@': current.commentId,
    '@@NOTIFICATION@@': current.notificationId,
    '@@OWNER_EMAIL@@': current.owner.email,
    '@@FRIEND_EMAIL@@': current.friend.email,
  }
}

function fillIn(text: string, current: World) {
  let filled = text
  for (const [placeholder, value] of Object.entries(placeholders(current))) {
    filled = filled.replaceAll(placeholder, value)
  }
  return filled
}

/**
 * Every table but `rate_limits`, hashed: counting attempts is what a refusal is allowed to do.
 * A session's last-seen time and expiry move on reads by design, so they are left out; so are the
 * search index's own tables, which mirror `tasks` and `comments`.
 */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await db.$client.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%drizzle%' AND name <> 'rate_limits' AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') ORDER BY name",
  )
  const hashes: Record<string, string> = {}
  for (const { name } of tables.rows) {
    const result = await db.$client.execute(`SELECT * FROM "${String(name)}" ORDER BY rowid`)
    const kept = result.columns
      .map((column, index) => ({ column, index }))
      .filter(
        ({ column }) => !(name === 'sessions' && (column === 'last_seen_at' || column === 'expires_at')),
      )
    const hash = createHash('sha256')
    for (const row of result.rows) {
      hash.update(JSON.stringify(kept.map(({ index }) => row[index] ?? null)))
    }
    hashes[String(name)] = `${result.rows.length}:${hash.digest('base64url').slice(0, 16)}`
  }
  return hashes
}

// ── Who asks ────────────────────────────────────────────────────────────────

const CALLERS = [
  'anonymous',
  'anonymous-with-token',
  'signed-in',
  'signed-in-without-token',
  'signed-in-from-elsewhere',
] as const
type Caller = (typeof CALLERS)[number]

function headersOf(caller: Caller, current: World): Record<string, string> {
  if (caller === 'anonymous') return {}
  const browser = caller === 'anonymous-with-token' ? anonymousBrowser() : current.ownerBrowser
  const headers: Record<string, string> = { cookie: browser.cookie }
  if (caller !== 'signed-in-without-token') headers[CSRF_HEADER] = browser.csrf
  if (caller === 'signed-in-from-elsewhere') headers.origin = 'https://evil.example'
  return headers
}

// ── What they send ──────────────────────────────────────────────────────────

/** Strings meant to reach the services: real ids and addresses, valid enum values, a password. */
const plausible = fc.constantFrom(
  '@@TASK@@',
  '@@PUBLIC_TASK@@',
  '@@COMMENT@@',
  '@@NOTIFICATION@@',
  '@@OWNER_EMAIL@@',
  '@@FRIEND_EMAIL@@',
  'A plausible task',
  'high',
  'Completed',
  'In Progress',
  'thumbsup',
  'github',
  TEST_PASSWORD,
  'a brand new password',
  'new-person@example.com',
  'https://example.com/picture.png',
  '/dashboard',
)

/** Strings meant to break something. */
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff',
    'a\ud83dz',
    '\u202etxt.exe',
    '\r\nSet-Cookie: x=1',
    '/\t/evil.example',
    '/.//evil.example',
    '//evil.example',
    'javascript:alert(1)',
    '<script>alert(1)</script>',
    "'; DROP TABLE tasks; --",
    '%00%E0%A4%A',
    '../../etc/passwd',
  ),
  fc.integer({ min: 1, max: 6 }).map((power) => 'x'.repeat(10 ** power)),
)

const prototypeText = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{"polluted":true}}',
  '{"__proto__":null}',
  '{"toString":"not a function","hasOwnProperty":1}',
)

const deepText = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, isArray]) =>
    isArray ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  )

const scalarText = fc.oneof(
  oddString.map((text) => JSON.stringify(text)),
  plausible.map((text) => JSON.stringify(text)),
  fc.integer().map(String),
  fc.double().map((number) => JSON.stringify(number)),
  fc.constantFrom('true', 'false', 'null', '1e999', '-0', '123456789012345678901234567890', '"\\ud800"'),
)

const keyText = fc
  .oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'json', 'meta', ''),
    fc.string({ unit: 'binary', maxLength: 8 }),
  )
  .map((key) => JSON.stringify(key))

/** Any JSON text (and some that only looks like it: 1e999, lone surrogates), nested a little. */
const { value: anyJsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    scalarText,
    prototypeText,
    deepText,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyText, tie('value')), { maxLength: 4 })
      .map((entries) => `{${entries.map(([key, value]) => `${key}:${value}`).join(',')}}`),
  ),
}))

/** An object with the fields an endpoint expects, filled with plausible or hostile values. */
function shapedText(fields: readonly string[]) {
  const fieldValue = fc.oneof(
    { weight: 3, arbitrary: plausible.map((text) => JSON.stringify(text)) },
    { weight: 1, arbitrary: fc.array(plausible, { maxLength: 3 }).map((list) => JSON.stringify(list)) },
    { weight: 2, arbitrary: anyJsonText },
  )
  return fc
    .subarray([...fields])
    .chain((keys) =>
      fc.tuple(fc.constant(keys), fc.array(fieldValue, { minLength: keys.length, maxLength: keys.length })),
    )
    .chain(([keys, values]) =>
      fc
        .oneof(
          fc.constant(''),
          prototypeText.map((text) => text.slice(1, -1)),
        )
        .map(
          (extra) =>
            `{${[...keys.map((key, i) => `${JSON.stringify(key)}:${values[i]}`), extra].filter(Boolean).join(',')}}`,
        ),
    )
}

const inputText = (fields: readonly string[]) =>
  fields.length > 0 ? fc.oneof({ weight: 3, arbitrary: shapedText(fields) }, anyJsonText) : anyJsonText

/** oRPC's envelope, with forged `meta` (the list of values to revive, by path) now and then. */
const forgedMeta = fc.constantFrom(
  '[[1,"__proto__","polluted"]]',
  '[[7,"constructor","prototype"]]',
  '[[0,"taskId"]]',
  '[[1,"text"]]',
  '[[6,"mentions"]]',
  '[[99]]',
  '"not a list"',
  '[]',
)

function rpcEnvelope(fields: readonly string[]) {
  return fc.oneof(
    { weight: 4, arbitrary: inputText(fields).map((input) => `{"json":${input}}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(inputText(fields), forgedMeta)
        .map(([input, meta]) => `{"json":${input},"meta":${meta}}`),
    },
    { weight: 1, arbitrary: inputText(fields) },
  )
}

type Body = { contentType?: string; body?: string | Uint8Array }

/** A JSON text sent every wrong way, and sometimes the right one. */
function bodies(json: fc.Arbitrary<string>): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 4, arbitrary: json.map((body) => ({ contentType: 'application/json', body })) },
    json.map((body) => ({ contentType: 'application/json; charset=utf-16', body })),
    json.map((body) => ({ contentType: 'text/plain', body })),
    json.map((body) => ({ body })),
    json.map((body) => ({ contentType: 'application/json', body: `\ufeff${body}` })),
    fc.tuple(json, fc.nat()).map(([body, cut]) => ({
      contentType: 'application/json',
      body: body.slice(0, cut % (body.length + 1)),
    })),
    fc
      .constantFrom('{nope', '{"json":', 'undefined', '', '\u0000')
      .map((body) => ({ contentType: 'application/json', body })),
    json.map((body) => ({
      contentType: 'application/x-www-form-urlencoded',
      body: `data=${percentEncode(body)}&json=1`,
    })),
    fc
      .string({ unit: 'binary', maxLength: 200 })
      .map((body) => ({ contentType: 'application/x-www-form-urlencoded', body })),
    json.map((body) => multipart({ data: body })),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 40 })).map(multipart),
    fc.string({ maxLength: 200 }).map((body) => ({ contentType: 'multipart/form-data; boundary=zz', body })),
    fc.uint8Array({ maxLength: 2_000 }).map((body) => ({ contentType: 'application/octet-stream', body })),
    fc.uint8Array({ maxLength: 2_000 }).map((body) => ({ contentType: 'application/json', body })),
    fc.constant({}),
  )
}

/** A multipart/form-data body of these fields, encoded by hand: fast-check values are plain data. */
function multipart(fields: Record<string, string>): Body {
  const boundary = '----fuzz-boundary'
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${value}\r\n`,
  )
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: `${parts.join('')}--${boundary}--\r\n`,
  }
}

const METHODS = fc.oneof(
  { weight: 4, arbitrary: fc.constant('POST') },
  { weight: 3, arbitrary: fc.constant('GET') },
  { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'HEAD') },
)

/**
 * Percent-encodes any string, a lone surrogate included: encodeURIComponent refuses one, so it
 * goes as the three bytes a careless encoder would produce (invalid UTF-8 for the server).
 */
function percentEncode(text: string) {
  return [...text]
    .map((char) => {
      const code = char.charCodeAt(0)
      if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('')
      }
      return encodeURIComponent(char)
    })
    .join('')
}

/** A GET's `?data=`: the envelope, truncated, doubled, raw, or broken percent-encoding. */
function dataQuery(envelope: fc.Arbitrary<string>) {
  // Node refuses request heads over 16 KB itself (431) before the app sees them: stay below.
  const limited = envelope.map((text) => percentEncode(text).slice(0, 6_000))
  return fc.oneof(
    { weight: 4, arbitrary: limited.map((data) => `?data=${data}`) },
    fc.tuple(limited, limited).map(([a, b]) => `?data=${a}&data=${b}`),
    fc.string({ unit: 'binary', maxLength: 60 }).map((raw) => `?data=${percentEncode(raw)}`),
    fc.constantFrom('', '?data=', '?data=%E0%A4%A', '?data=%7B', '?data=undefined', '?data[]=1', '?DATA=1'),
  )
}

type Generated = {
  caller: Caller
  method: string
  target: string
  origin: 'none' | 'same' | 'foreign' | 'null'
} & Body

function requests(
  path: string,
  body: fc.Arbitrary<Body>,
  query: fc.Arbitrary<string>,
): fc.Arbitrary<Generated> {
  return fc
    .record({
      caller: fc.constantFrom(...CALLERS),
      method: METHODS,
      origin: fc.oneof(
        { weight: 6, arbitrary: fc.constant('none' as const) },
        fc.constantFrom('same', 'foreign', 'null'),
      ),
      body,
      query,
    })
    .map(({ body: sent, query: search, method, ...rest }) => ({
      ...rest,
      method,
      target: `${path}${search}`,
      // GET and HEAD carry no body, as browsers and RPCLink send them.
      ...(method === 'GET' || method === 'HEAD' ? {} : sent),
    }))
}

// ── Sending one and judging the answer ─────────────────────────────────────

type Judged = { response: RawResponse; isRefusal: boolean }

async function send(
  generated: Generated,
): Promise<{ response: RawResponse; before: Record<string, string>; after: Record<string, string> }> {
  const current = await ensureWorld()
  const headers = headersOf(generated.caller, current)
  if (generated.origin === 'same') headers.origin = server.origin
  if (generated.origin === 'foreign') headers.origin = 'https://evil.example'
  if (generated.origin === 'null') headers.origin = 'null'
  if (generated.contentType) headers['content-type'] = generated.contentType
  const request: RawRequest = {
    method: generated.method,
    path: fillIn(generated.target, current),
    headers,
    body: typeof generated.body === 'string' ? fillIn(generated.body, current) : generated.body,
  }
  const before = await fingerprint()
  const response = await requestOnce(server.origin, request)
  const after = await fingerprint()
  return { response, before, after }
}

/** The `code` of a refusal: oRPC's `{ json: { code } }` or the endpoints' own `{ code }`. */
function codeOf(text: string): unknown {
  const body = JSON.parse(text) as { code?: unknown; json?: { code?: unknown } } | null
  return body?.code ?? body?.json?.code
}

function judge(
  generated: Generated,
  sent: Awaited<ReturnType<typeof send>>,
  options: { isRead: boolean },
): Judged {
  const { response, before, after } = sent
  const what = `${generated.method} ${generated.target} as ${generated.caller} → ${response.status} ${response.text.slice(0, 300)}`
  expect(response.status, what).toBeLessThan(500)
  const isRefusal = response.status >= 400
  if (isRefusal) {
    expect(after, `a refusal changed rows: ${what}`).toEqual(before)
    if (generated.method !== 'HEAD') {
      expect(response.headers['content-type'], what).toMatch(/^application\/json/)
      expect(codeOf(response.text), what).toEqual(expect.any(String))
    }
  } else if (response.status < 300 && generated.method !== 'HEAD') {
    expect(response.headers['content-type'], what).toMatch(/^application\/json/)
  }
  if (options.isRead || generated.method === 'GET' || generated.method === 'HEAD') {
    expect(after, `a read changed rows: ${what}`).toEqual(before)
  }
  expect(({} as { polluted?: unknown }).polluted, 'Object.prototype was polluted').toBeUndefined()
  return { response, isRefusal }
}

// ── /api/rpc ────────────────────────────────────────────────────────────────

type Procedure = { path: string; isRead: boolean; fields: string[] }

/** Every procedure of the router, found by walking it, so a new one is fuzzed without asking. */
function proceduresOf(node: unknown, path: string[] = []): Procedure[] {
  if (isProcedure(node)) {
    const procedure = node as AnyProcedure
    return [
      {
        path: path.join('/'),
        isRead: procedure['~orpc'].route.method === 'GET',
        fields: fieldsOf(procedure['~orpc'].inputSchema),
      },
    ]
  }
  if (typeof node !== 'object' || node === null) return []
  return Object.entries(node).flatMap(([key, child]) => proceduresOf(child, [...path, key]))
}

/** The field names of a zod object schema (through pipes), to aim inputs at them. */
function fieldsOf(schema: unknown): string[] {
  const zod = schema as { shape?: Record<string, unknown>; def?: { type?: string; in?: unknown } } | undefined
  if (zod?.shape) return Object.keys(zod.shape)
  if (zod?.def?.type === 'pipe') return fieldsOf(zod.def.in)
  return []
}

const PROCEDURES = proceduresOf(router)

describe('/api/rpc', () => {
  test('the walk found every procedure of the contract', () => {
    expect(PROCEDURES.map((procedure) => procedure.path)).toEqual(
      expect.arrayContaining([
        'healthCheck',
        'task/getAll',
        'task/get',
        'task/create',
        'task/update',
        'task/setStatus',
        'task/share',
        'task/delete',
        'task/getTaskUsers',
        'task/search',
        'comments/getComments',
        'comments/addComment',
        'comments/updateComment',
        'comments/deleteComment',
        'comments/addReaction',
        'comments/getMentionNotifications',
        'comments/markNotificationAsRead',
        'ai/getSavedChats',
      ]),
    )
  })

  for (const procedure of PROCEDURES) {
    const envelope = rpcEnvelope(procedure.fields)
    test.prop([requests(`${RPC_PREFIX}/${procedure.path}`, bodies(envelope), dataQuery(envelope))], {
      seed: SEED,
      numRuns: RUNS,
    })(
      `${procedure.path}: no 5xx, refusals are JSON with a code and change nothing`,
      async (generated) => {
        const judged = judge(generated, await send(generated), procedure)
        // Reads answer GET (and HEAD) and POST; mutations POST only; nothing else runs anything.
        const allowed = procedure.isRead ? ['GET', 'HEAD', 'POST'] : ['POST']
        if (!judged.isRefusal && !allowed.includes(generated.method)) {
          throw new Error(`${procedure.path} ran by ${generated.method} (${judged.response.status})`)
        }
      },
      TIMEOUT_MS,
    )
  }
})

// ── /api/auth ───────────────────────────────────────────────────────────────

/** Every endpoint of the better-auth paths /api/auth serves, with the fields each reads. */
const AUTH_ENDPOINTS: { path: string; method: 'GET' | 'POST'; fields: string[] }[] = [
  { path: 'get-session', method: 'GET', fields: [] },
  { path: 'list-sessions', method: 'GET', fields: [] },
  { path: 'verify-email', method: 'GET', fields: ['token', 'callbackURL'] },
  { path: 'callback/github', method: 'GET', fields: ['code', 'state'] },
  { path: 'callback/google', method: 'GET', fields: ['code', 'state'] },
  { path: 'sign-up/email', method: 'POST', fields: ['name', 'email', 'password', 'callbackURL'] },
  { path: 'sign-in/email', method: 'POST', fields: ['email', 'password', 'callbackURL', 'rememberMe'] },
  { path: 'sign-in/social', method: 'POST', fields: ['provider', 'callbackURL'] },
  { path: 'sign-out', method: 'POST', fields: [] },
  { path: 'update-user', method: 'POST', fields: ['name', 'image'] },
  { path: 'delete-user', method: 'POST', fields: ['password', 'confirmation', 'callbackURL'] },
  { path: 'revoke-sessions', method: 'POST', fields: [] },
  { path: 'revoke-other-sessions', method: 'POST', fields: [] },
  { path: 'send-verification-email', method: 'POST', fields: [] },
  { path: 'request-password-reset', method: 'POST', fields: ['email', 'redirectTo'] },
  { path: 'reset-password', method: 'POST', fields: ['newPassword', 'token'] },
  { path: 'no-such-endpoint', method: 'POST', fields: [] },
]

/** A query string of the endpoint's fields (and others), percent-encoded well or badly. */
function authQuery(fields: readonly string[]) {
  const name = fc.oneof(fc.constantFrom(...fields, '__proto__', 'constructor'), fc.string({ maxLength: 6 }))
  const value = fc.oneof(
    plausible,
    oddString.map((text) => text.slice(0, 500)),
  )
  return fc.oneof(
    fc
      .array(fc.tuple(name, value), { maxLength: 4 })
      .map((pairs) =>
        pairs.length ? `?${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}` : '',
      ),
    fc.constantFrom(
      '?token=%E0%A4%A&callbackURL=%FF',
      '?callbackURL=%2F%09%2Fevil.example&token=x',
      '?token',
    ),
  )
}

describe('/api/auth', () => {
  for (const endpoint of AUTH_ENDPOINTS) {
    test.prop(
      [
        requests(
          `/api/auth/${endpoint.path}`,
          bodies(inputText(endpoint.fields)),
          authQuery(endpoint.fields),
        ),
      ],
      {
        seed: SEED,
        numRuns: RUNS,
      },
    )(
      `${endpoint.method} ${endpoint.path}: no 5xx, refusals are JSON with a code and change nothing`,
      async (generated) => {
        const judged = judge(generated, await send(generated), { isRead: endpoint.method === 'GET' })
        const method = generated.method === 'HEAD' ? 'GET' : generated.method
        if (!judged.isRefusal && method !== endpoint.method) {
          throw new Error(`${endpoint.path} answered ${judged.response.status} to ${generated.method}`)
        }
      },
      TIMEOUT_MS,
    )
  }
})
