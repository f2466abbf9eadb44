import { lookup as dnsLookup } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Where a webhook may be sent (docs/decisions/043-standard-webhooks.md). A URL is a request the
 * server makes on someone's behalf, so it must never reach what only the server can: loopback,
 * private networks, link-local (the cloud metadata service at 169.254.169.254), unique-local, or
 * "this host". An address is classified after the URL parser has normalised it — WHATWG turns
 * `127.1`, `0x7f.1`, `2130706433` and `017700000001` into `127.0.0.1` — and IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is judged by the IPv4 address it maps. A name is checked twice: when the
 * endpoint is added (`localhost` and the metadata names), and after DNS at every delivery, by the
 * `lookup` the connection itself uses, so the address checked is the address connected to.
 */

type Range = [address: string, prefix: number, family: 'ipv4' | 'ipv6', kind: string]

const RANGES: Range[] = [
  ['0.0.0.0', 8, 'ipv4', 'a "this host" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a private (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (cloud metadata lives there)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'a "this host" address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['64:ff9b::', 96, 'ipv6', 'a translated IPv4 address'],
  ['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
]

/** Names that are this machine or its cloud's metadata service whatever DNS says. */
const RESERVED_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal)$/

const blockLists = RANGES.map(([address, prefix, family, kind]) => {
  const list = new BlockList()
  list.addSubnet(address, prefix, family)
  return { list, kind }
})

/** Why an address literal is out of bounds, or null when it is a public address. */
export function forbiddenAddressKind(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '')
  const family = isIP(bare)
  if (family === 0) return null
  // BlockList judges an IPv4-mapped IPv6 address by the IPv4 rules too.
  const type = family === 4 ? 'ipv4' : 'ipv6'
  return blockLists.find(({ list }) => list.check(bare, type))?.kind ?? null
}

const isLoopback = (host: string) =>
  host === 'localhost' || forbiddenAddressKind(host) === 'a loopback address'

/**
 * Why a URL may not be an endpoint, in words for the form, or null when it may. `allowPrivate`
 * is WEBHOOKS_ALLOW_PRIVATE: any address, and plain http:// to loopback.
 */
export function refuseEndpointUrl(input: string, allowPrivate: boolean): string | null {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return 'Enter a full URL, starting with https://'
  }
  if (url.username || url.password) return 'The URL must not carry a user name or password'
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (url.protocol === 'http:' && allowPrivate && isLoopback(host)) return null
  if (url.protocol !== 'https:') return 'Webhooks are sent over https only: use an https:// URL'
  if (allowPrivate) return null
  if (RESERVED_NAMES.test(host)) return `Webhooks cannot be sent to ${host}: it is this server's own network`
  const kind = forbiddenAddressKind(host)
  return kind ? `Webhooks cannot be sent to ${url.hostname}: it is ${kind}` : null
}

/** What resolves a name: node's own `dns.lookup` unless a test hands in another. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  )

class ForbiddenTarget extends Error {
  override name = 'ForbiddenTarget'
}

/**
 * The `lookup` a delivery's socket connects through: it resolves the name, refuses when any
 * address it resolves to is out of bounds (a name may answer a public and a private address, and
 * which one the socket would pick is not ours to bet on), and hands the socket the address it
 * checked — there is no second resolution between the check and the connection.
 */
export function checkedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new ForbiddenTarget(`${hostname} has no address`)
        if (!allowPrivate) {
          for (const { address } of addresses) {
            const kind = forbiddenAddressKind(address)
            if (kind) throw new ForbiddenTarget(`${hostname} resolves to ${address}, ${kind}`)
          }
        }
        const wanted = options.family === 6 || options.family === 4 ? options.family : 0
        const usable = addresses.filter(({ family }) => wanted === 0 || family === wanted)
        if (options.all) return callback(null, usable)
        const [first] = usable
        if (!first) throw new ForbiddenTarget(`${hostname} has no IPv${wanted} address`)
        callback(null, first.address, first.family)
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, ''))
  }
}
