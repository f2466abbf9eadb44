/**
 * A strict, small well-formedness check for the XML the app writes (sitemap, RSS): one root
 * element, every tag closed in order, attributes quoted, and no raw `<` or stray `&` in text.
 * Returns the problem, or null when the document is well-formed. Browser tests use DOMParser; this
 * keeps unit tests free of an XML dependency.
 */
export function xmlProblem(xml: string): string | null {
  const open: string[] = []
  let index = 0
  let roots = 0
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>')
    if (end === -1) return 'unterminated XML declaration'
    index = end + 2
  }
  while (index < xml.length) {
    const lt = xml.indexOf('<', index)
    const text = xml.slice(index, lt === -1 ? xml.length : lt)
    const textProblem = entityProblem(text)
    if (textProblem) return textProblem
    if (open.length === 0 && text.trim() !== '')
      return `text outside the root element: ${text.trim().slice(0, 40)}`
    if (lt === -1) break
    const gt = xml.indexOf('>', lt)
    if (gt === -1) return 'unterminated tag'
    const tag = xml.slice(lt + 1, gt)
    if (tag.includes('<')) return `'<' inside a tag: <${tag}>`
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim()
      const expected = open.pop()
      if (name !== expected) return `</${name}> closes <${expected ?? 'nothing'}>`
    } else {
      const isEmpty = tag.endsWith('/')
      const body = isEmpty ? tag.slice(0, -1) : tag
      const name = body.split(/\s/, 1)[0] ?? ''
      if (!/^[A-Za-z_][\w.:-]*$/.test(name)) return `bad element name: ${name}`
      const attributeProblem = attributesProblem(body.slice(name.length))
      if (attributeProblem) return `${attributeProblem} in <${name}>`
      if (open.length === 0) roots += 1
      if (roots > 1) return 'more than one root element'
      if (!isEmpty) open.push(name)
    }
    index = gt + 1
  }
  if (open.length > 0) return `<${open.at(-1)}> is never closed`
  if (roots !== 1) return 'no root element'
  return null
}

function attributesProblem(source: string): string | null {
  let rest = source.trim()
  while (rest !== '') {
    const match = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(rest)
    if (!match) return `bad attribute syntax '${rest.slice(0, 30)}'`
    const problem = entityProblem(match[3] ?? match[4] ?? '')
    if (problem) return problem
    rest = rest.slice(match[0].length).trim()
  }
  return null
}

function entityProblem(text: string): string | null {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    if (!/^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/.test(text.slice(at))) {
      return `unescaped '&' near '${text.slice(at, at + 20)}'`
    }
  }
  return null
}
