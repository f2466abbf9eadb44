import { request } from 'node:http'

export type RawRequest = {
  method: string
  /** The request target as sent: a path with its query, already encoded. */
  path: string
  headers?: Record<string, string>
  body?: string | Uint8Array
}

export type RawResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/**
 * One request on a connection of its own (no keep-alive), with any method, headers and bytes:
 * what `fetch` refuses to send (a body on any method, odd content types) and what a
 * half-read body would leave behind on a reused connection cannot leak into the next request.
 */
export function requestOnce(
  origin: string,
  { method, path, headers = {}, body }: RawRequest,
): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    outgoing.on('error', reject)
    // Node frames a body on DELETE or OPTIONS only with an explicit length.
    if (body !== undefined && !outgoing.hasHeader('content-length')) {
      outgoing.setHeader('content-length', Buffer.byteLength(body))
    }
    outgoing.end(body)
  })
}
