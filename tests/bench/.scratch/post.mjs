import autocannon from 'autocannon'
const seed = JSON.parse((await import('node:fs')).readFileSync('/tmp/s14-data-bench/w/seed.json','utf8'))
const port = process.argv[2]
const body = JSON.stringify({ json: { taskId: seed.writeTaskId, content: `@${seed.owner.name} hi`, mentions: [seed.owner.email] } })
const statuses = {}
const r = await autocannon({ url: `http://127.0.0.1:${port}/api/rpc/comments/addComment`, connections: 32, duration: 3, method: 'POST',
  headers: {'content-type':'application/json'}, body,
  requests: seed.writers.map(w => ({ method: 'POST', path: '/api/rpc/comments/addComment', headers: {'content-type':'application/json', cookie: w.cookie, 'x-csrf-token': w.csrf}, body, onResponse: (status, b) => { statuses[status] = (statuses[status]??0)+1; if (status !== 200 && !statuses['ex'+status]) statuses['ex'+status] = String(b).slice(0,200) } })) })
console.log(r.requests.total, r['2xx'], r.non2xx, r.errors, r.timeouts, statuses)
