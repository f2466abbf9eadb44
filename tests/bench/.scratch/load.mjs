import autocannon from 'autocannon'
import { readFileSync } from 'node:fs'
const seed = JSON.parse(readFileSync('/tmp/s14-data-bench/w/seed.json','utf8'))
const [port, mode, seconds = '5'] = process.argv.slice(2)
const path = `/api/rpc/comments/getComments?data=${encodeURIComponent(JSON.stringify({json:{taskId: seed.taskId}}))}`
const headers = { cookie: seed.cookie, 'accept-encoding': 'gzip, deflate, br' }
if (mode === '304') headers['if-none-match'] = process.argv[5]
const statuses = {}
const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 32, duration: Number(seconds), headers,
  requests: [{ onResponse: (s) => { statuses[s] = (statuses[s] ?? 0) + 1 } }] })
console.log(mode, 'rps', r.requests.average, 'p50', r.latency.p50, 'p99', r.latency.p99, statuses)
