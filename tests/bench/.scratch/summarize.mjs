import { readFileSync } from 'node:fs'
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const self = new Map(); const byId = new Map(prof.nodes.map(n => [n.id, n]))
const dt = new Map(); prof.samples.forEach((s, i) => dt.set(s, (dt.get(s) ?? 0) + (prof.timeDeltas[i] ?? 0)))
let total = 0
for (const n of prof.nodes) { const t = dt.get(n.id) ?? 0; total += t
  const f = n.callFrame; const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, '').replace(/.*\/build\//,'build/')}:${f.lineNumber}`
  self.set(key, (self.get(key) ?? 0) + t) }
const byPkg = new Map()
for (const n of prof.nodes) { const t = dt.get(n.id) ?? 0; const u = n.callFrame.url; const m = u.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const k = m ? m[1] : u.includes('build/server') ? 'app (build/server)' : u.startsWith('node:') ? 'node:' + u.slice(5).split('/')[0] : (n.callFrame.functionName || '(native/other)'); byPkg.set(k, (byPkg.get(k) ?? 0) + t) }
console.log('by package'); [...byPkg].sort((a,b)=>b[1]-a[1]).slice(0,18).forEach(([k,t]) => console.log((100*t/total).toFixed(1).padStart(5)+'%', k))
console.log('top self'); [...self].sort((a,b)=>b[1]-a[1]).slice(0,30).forEach(([k,t]) => console.log((100*t/total).toFixed(1).padStart(5)+'%', k))
