import Database from 'libsql'
for (const mode of ['FULL', 'NORMAL']) {
  const file = `/tmp/s14-data-bench/w/fsync-${mode}.db`
  const db = new Database(file)
  db.exec('PRAGMA journal_mode=WAL'); db.exec(`PRAGMA synchronous=${mode}`)
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)')
  const ins = db.prepare('INSERT INTO t (v) VALUES (?)')
  const start = performance.now()
  for (let i = 0; i < 200; i++) ins.run('x'.repeat(100))
  console.log(mode, ((performance.now() - start) / 200).toFixed(3), 'ms per commit')
}
