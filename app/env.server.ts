import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { z } from '~/utils/zod'

/**
 * The whole configuration of the app, parsed once. This is the only module that reads
 * `process.env`: everything else imports `env()` and gets typed, validated values.
 */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
const optionalUrl = httpUrl.optional()

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('http://localhost:3000')
    .transform((url) => url.replace(/\/+$/, '')),
  /** Trust Fly-Client-IP / X-Forwarded-For for the client's address (only behind a known proxy). */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * `text` (readable, the default) or `json`: one JSON object per line, start-up messages
   * included, each with its request's id, route and signed-in person (app/utils/log.server.ts).
   */
  LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  /**
   * Prometheus metrics (app/utils/metrics.server.ts), off unless one of these is set: a listener
   * of their own on METRICS_HOST:METRICS_PORT (on Fly, METRICS_HOST=fly-local-6pn, the private
   * network), and/or GET /metrics on the app's port for `Authorization: Bearer <METRICS_TOKEN>`.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * OpenTelemetry traces (app/utils/tracing.server.ts), off unless an OTLP/HTTP endpoint is set;
   * the SDK reads the other OTEL_* variables itself. The installed exporter sends JSON: http/json
   * is the one protocol accepted (http/protobuf needs @opentelemetry/exporter-trace-otlp-proto).
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .literal('http/json', { error: 'only http/json is supported (the OTLP/HTTP JSON exporter is installed)' })
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .literal('http/json', { error: 'only http/json is supported (the OTLP/HTTP JSON exporter is installed)' })
    .optional(),
  /**
   * `off` sends every request through React Router, even those answered ahead of it in production
   * (/healthz, the event streams, unchanged polls of /api/rpc: server/fast-paths.ts). The answers
   * are the same either way (a parity test proves it); only their cost differs.
   */
  FAST_PATHS: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  /**
   * Worker processes serving the one port (node:cluster, server/cluster.ts); unset, every core in
   * production and one process elsewhere.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * How often event streams read the log for changes the process was not told of: other machines'
   * writes (worker processes of one machine tell each other at once).
   */
  EVENT_STREAM_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(250),

  /**
   * Lets webhook endpoints be private, loopback or link-local addresses, and plain http:// to
   * loopback: for development and tests only (docs/decisions/043-standard-webhooks.md).
   */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),

  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:|https?:|wss?:)/, 'must start with file:, libsql:, http(s): or ws(s):')
    .default('file:data/app.db'),
  DATABASE_AUTH_TOKEN: z.string().min(1).optional(),
  DATABASE_SYNC_URL: z
    .string()
    .regex(/^(libsql:|https?:)/, 'must be a libsql: or http(s): URL')
    .optional(),
  /**
   * How often an embedded replica pulls the primary's changes by itself. Its own writes are read
   * back at once and event streams sync before reading the log, so this bounds only how stale a
   * page rendered from the replica may be: 2 s keeps that under what a person notices on a
   * reload, at one small request per instance every 2 s.
   */
  DATABASE_SYNC_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
  /**
   * How a local file's commits reach the disk. NORMAL, in WAL mode, loses no commit when the
   * process dies, only possibly the last ones on a power cut; FULL waits for the disk on every
   * commit (docs/decisions/030-native-statements-and-synchronous-normal.md).
   */
  DATABASE_SYNCHRONOUS: z.enum(['NORMAL', 'FULL']).default('NORMAL'),

  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Who may open /admin: comma-separated addresses, each an admin once verified
   * (docs/decisions/045-admin-console.md). Unset, nobody is; everyone else gets a 404 there.
   */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((address) => address.trim().toLowerCase())
        .filter((address) => address !== ''),
    )
    .pipe(z.array(z.email({ error: 'must be comma-separated e-mail addresses' }))),
  /**
   * The key two-factor secrets are encrypted with (and recovery codes hashed with); derived from
   * SESSION_SECRET when unset. Its own variable lets SESSION_SECRET rotate without locking anyone out.
   */
  TWO_FACTOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),

  SUPPORT_EMAIL: z.email().default('support@threadwork.dev'),

  /** Where the MDX of docs, blog, changelog and legal pages lives; relative to the working directory. */
  CONTENT_DIR: z.string().min(1).default('content'),

  /** e.g. smtp://user:pass@smtp.example.com:587; without it e-mails are logged (and shown at /dev/mailbox). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Threadwork <no-reply@threadwork.dev>'),
  /**
   * How long a mention waits before it is e-mailed to someone who is away: mentions arriving
   * meanwhile join the same e-mail, and one read meanwhile is left out.
   */
  MENTION_EMAIL_DELAY_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),

  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GITHUB_AUTHORIZE_URL: httpUrl.default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: httpUrl.default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: httpUrl.default('https://api.github.com'),

  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_AUTHORIZE_URL: httpUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: httpUrl.default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: httpUrl.default('https://openidconnect.googleapis.com/v1/userinfo'),

  PLAUSIBLE_DOMAIN: z.string().min(1).optional(),
  PLAUSIBLE_SCRIPT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://plausible.io/js/script.js'),

  /**
   * Any OpenAI-compatible chat endpoint (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio), e.g.
   * http://127.0.0.1:11434/v1; without it the chat answers with the built-in assistant.
   */
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** How fast the built-in assistant types: milliseconds between the words of its answers. */
  AI_ASSISTANT_WORD_DELAY_MS: z.coerce.number().int().min(0).max(1000).default(15),

  CHECKOUT_SUCCESS_URL: optionalUrl,
  CHECKOUT_URL: optionalUrl,
  CHECKOUT_URL_YEARLY: optionalUrl,
  CHECKOUT_URL_LIFETIME: optionalUrl,
  CHECKOUT_URL_TIER_1_YEARLY: optionalUrl,
  CHECKOUT_URL_TIER_1_LIFETIME: optionalUrl,
  CHECKOUT_URL_TIER_2_YEARLY: optionalUrl,
  CHECKOUT_URL_TIER_2_LIFETIME: optionalUrl,
  CHECKOUT_URL_TIER_3_YEARLY: optionalUrl,
  CHECKOUT_URL_TIER_3_LIFETIME: optionalUrl,

  /** Stripe Checkout: with the secret key and an option's price id, "Buy" opens a Checkout Session. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's API; tests point it at a local stand-in. */
  STRIPE_API_URL: httpUrl.default('https://api.stripe.com'),
  STRIPE_PRICE_TIER_1_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_TIER_1_LIFETIME: z.string().min(1).optional(),
  STRIPE_PRICE_TIER_2_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_TIER_2_LIFETIME: z.string().min(1).optional(),
  STRIPE_PRICE_TIER_3_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_TIER_3_LIFETIME: z.string().min(1).optional(),
  /** Buyers are invited to this private repository (owner/name) with this token's account. */
  GITHUB_INVITE_TOKEN: z.string().min(1).optional(),
  GITHUB_INVITE_REPO: z
    .string()
    .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
    .optional(),
})

export type Env = Omit<z.infer<typeof EnvSchema>, 'WEB_CONCURRENCY'> & {
  WEB_CONCURRENCY: number
  SESSION_SECRET: string
  /** True when no SESSION_SECRET was configured and a random one stands in for it. */
  isSessionSecretGenerated: boolean
  isProduction: boolean
}

export class InvalidEnvError extends Error {
  override name = 'InvalidEnvError'
}

/** Parses a set of variables; a bad value throws a message that names the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as in most deploy dashboards.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = EnvSchema.safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new InvalidEnvError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const isProduction = result.data.NODE_ENV === 'production'
  return {
    ...result.data,
    WEB_CONCURRENCY: result.data.WEB_CONCURRENCY ?? (isProduction ? availableParallelism() : 1),
    // Without a configured secret, a random one keeps cookies unforgeable; sessions then last
    // only as long as the process (the server warns about it at boot).
    SESSION_SECRET: result.data.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    isSessionSecretGenerated: result.data.SESSION_SECRET === undefined,
    isProduction,
  }
}

let cached: Env | undefined

export function env(): Env {
  cached ??= parseEnv(process.env)
  return cached
}

/**
 * The log format asked for, read before the rest of the configuration is checked, so even the
 * message that names a bad variable is written in it.
 */
export function requestedLogFormat(): 'text' | 'json' {
  return process.env.LOG_FORMAT === 'json' ? 'json' : 'text'
}

/** Whether traces are exported: an OTLP endpoint is configured. */
export const isTracingConfigured = (config: Env) =>
  Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)

/** Whether metrics are collected: a listener of their own or a token for /metrics is configured. */
export const isMetricsConfigured = (config: Env) =>
  config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined

/** Tests change variables between cases; production never calls this. */
export function resetEnvForTests() {
  cached = undefined
}

/** What the browser may know: the client configuration the root loader passes on. Never put a secret here. */
export function clientConfig() {
  const e = env()
  return {
    baseUrl: e.BASE_URL,
    successUrl: e.CHECKOUT_SUCCESS_URL,
    checkout: {
      public: e.CHECKOUT_URL,
      yearly: e.CHECKOUT_URL_YEARLY,
      lifetime: e.CHECKOUT_URL_LIFETIME,
      tiers: {
        1: { yearly: e.CHECKOUT_URL_TIER_1_YEARLY, lifetime: e.CHECKOUT_URL_TIER_1_LIFETIME },
        2: { yearly: e.CHECKOUT_URL_TIER_2_YEARLY, lifetime: e.CHECKOUT_URL_TIER_2_LIFETIME },
        3: { yearly: e.CHECKOUT_URL_TIER_3_YEARLY, lifetime: e.CHECKOUT_URL_TIER_3_LIFETIME },
      },
    },
    analytics: e.PLAUSIBLE_DOMAIN
      ? { domain: e.PLAUSIBLE_DOMAIN, scriptUrl: e.PLAUSIBLE_SCRIPT_URL }
      : undefined,
  }
}
