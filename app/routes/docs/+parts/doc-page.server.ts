import { rpcReference } from '~/rpc/openapi.server'
import { contentVersion, type Doc, listDocs, renderEntry, summarizeDoc } from '~/services/content.server'
import { publicCacheHeaders } from '~/utils/public-cache.server'

/** What a docs page needs: the doc as HTML (with the generated RPC reference where it shows it), its table of contents, and its neighbours. */
export async function docPageData(doc: Doc, request: Request) {
  const [docs, rendered, version] = await Promise.all([
    listDocs(),
    // The RPC page's reference is generated from the router, never written by hand.
    rpcReference().then((reference) => renderEntry(doc, { rpcReference: reference })),
    contentVersion(['docs']),
  ])
  const position = docs.findIndex((entry) => entry.path === doc.path)
  const neighbour = (entry: Doc | undefined) => (entry ? summarizeDoc(entry) : null)
  return {
    data: {
      doc: { ...summarizeDoc(doc), html: rendered.html, toc: rendered.toc },
      previous: neighbour(docs[position - 1]),
      next: neighbour(docs[position + 1]),
    },
    headers: publicCacheHeaders(request, version),
  }
}
