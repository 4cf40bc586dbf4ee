// The Kuzu peer of kg bench (cmd/kg/bench_kuzu.go runs it): loads the
// corpus kg bench exported as CSV files into an embedded Kuzu database
// and answers the same questions in Cypher, in process, at each
// concurrency (one connection per client), printing one JSON line per
// run. Usage: node bench.js DIR SECS CLIENTS (DIR holds the CSV files and
// inputs.json; CLIENTS is comma-separated).
"use strict";
const kuzu = require("kuzu");
const fs = require("fs");
const path = require("path");

const [dir, secsArg, clientsArg] = process.argv.slice(2);
const secs = Number(secsArg);
const clients = clientsArg.split(",").map(Number);

const schema = [
  "CREATE NODE TABLE Paper(id INT64, title STRING, year INT64, month STRING, PRIMARY KEY (id))",
  "CREATE NODE TABLE Person(id INT64, name STRING, PRIMARY KEY (id))",
  "CREATE NODE TABLE Subject(id INT64, code STRING, PRIMARY KEY (id))",
  "CREATE NODE TABLE Concept(id INT64, name STRING, papers INT64, idf DOUBLE, PRIMARY KEY (id))",
  "CREATE REL TABLE AUTHORED(FROM Person TO Paper)",
  "CREATE REL TABLE IN_SUBJECT(FROM Paper TO Subject)",
  "CREATE REL TABLE MENTIONS(FROM Paper TO Concept, weight DOUBLE)",
];
const loads = [
  ["Paper", "papers.csv"], ["Person", "people.csv"], ["Subject", "subjects.csv"], ["Concept", "concepts.csv"],
  ["AUTHORED", "authorship.csv"], ["IN_SUBJECT", "paper_subjects.csv"], ["MENTIONS", "mentions.csv"],
];

// The Cypher for each question; $id is the input's id, $t its text, $b
// the second person of a path. Search is left out: Kuzu's full-text
// index is an extension fetched from the network at INSTALL.
const cypher = {
  "coauthors": `MATCH (a:Person {id: $id})-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b:Person) WHERE b.id <> $id
    RETURN b.id, b.name, count(*) AS w ORDER BY w DESC, b.name LIMIT 20`,
  "person-papers": `MATCH (:Person {id: $id})-[:AUTHORED]->(p:Paper)
    RETURN p.id, p.title, p.year ORDER BY p.month DESC, p.year DESC, p.title LIMIT 20`,
  "related": `MATCH (p:Paper {id: $id})-[m1:MENTIONS]->(c:Concept)<-[m2:MENTIONS]-(q:Paper) WHERE q.id <> $id
    RETURN q.id, q.title, sum(m1.weight * m2.weight * c.idf * c.idf) AS s ORDER BY s DESC LIMIT 10`,
  "concept-papers": `MATCH (:Concept {id: $id})<-[m:MENTIONS]-(p:Paper)
    RETURN p.id, p.title ORDER BY m.weight DESC, p.month DESC LIMIT 20`,
  // an author's papers (49) and every edge at them: their people,
  // subjects and concepts
  "neighborhood-2": `MATCH (:Person {id: $id})-[:AUTHORED]->(p:Paper) WITH p ORDER BY p.id LIMIT 49
    MATCH (p)-[r]-(x) RETURN p.id, label(r), label(x), x.id`,
  "facet": `MATCH (:Concept {id: $id})<-[:MENTIONS]-(p:Paper) WHERE p.month IS NOT NULL
    RETURN p.month, count(*) ORDER BY p.month`,
  "top": `MATCH (:Subject {code: $t})<-[:IN_SUBJECT]-(:Paper)<-[:AUTHORED]-(a:Person)
    RETURN a.id, a.name, count(*) AS n ORDER BY n DESC, a.name LIMIT 10`,
  "path": `MATCH p = (a:Person {id: $id})-[:AUTHORED* SHORTEST 1..12]-(b:Person {id: $b}) RETURN length(p)`,
  // nothing asked of the graph: the ceiling of a question in process
  "noop": `RETURN 1`,
};

async function main() {
  const start = Date.now();
  const db = new kuzu.Database(path.join(dir, "kuzu-db"));
  const setup = new kuzu.Connection(db);
  for (const s of schema) await setup.query(s);
  for (const [table, file] of loads) {
    await setup.query(`COPY ${table} FROM '${path.join(dir, file)}' (HEADER=true)`);
  }
  console.error(`kuzu ${kuzu.VERSION}: loaded in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  const inputs = JSON.parse(fs.readFileSync(path.join(dir, "inputs.json"), "utf8"));
  const conns = [];
  for (let i = 0; i < Math.max(...clients); i++) conns.push(new kuzu.Connection(db));
  for (const q of inputs) {
    const text = cypher[q.name];
    if (!text) continue;
    const stmts = await Promise.all(conns.map((c) => c.prepare(text)));
    const ask = async (i, input) => {
      const args = {};
      if (text.includes("$id")) args.id = input.a;
      if (text.includes("$t")) args.t = input.text;
      if (text.includes("$b")) args.b = input.b;
      const r = await conns[i].execute(stmts[i], args);
      await r.getAll();
    };
    for (const input of q.inputs) await ask(0, input); // warm: every input once
    for (const c of clients) {
      const lat = [];
      let errors = 0;
      const t0 = Date.now();
      const deadline = t0 + secs * 1000;
      await Promise.all(Array.from({ length: c }, async (_, i) => {
        let seed = i + 1;
        while (Date.now() < deadline) {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          const input = q.inputs[seed % q.inputs.length];
          const t = process.hrtime.bigint();
          try { await ask(i, input); } catch (e) { if (errors++ === 0) console.error(q.name, e.message); }
          lat.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }));
      const el = (Date.now() - t0) / 1000;
      lat.sort((a, b) => a - b);
      const pct = (p) => lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : 0;
      const run = { system: "kuzu", question: q.name, clients: c, requests: lat.length, errors, seconds: el,
        perSecond: lat.length / el, p50ms: pct(0.5), p95ms: pct(0.95), p99ms: pct(0.99) };
      console.error(`kuzu      ${q.name.padEnd(15)} ${String(c).padStart(3)} clients: ${run.perSecond.toFixed(0).padStart(8)}/s  p50 ${run.p50ms.toFixed(2)}  p99 ${run.p99ms.toFixed(2)} ms  (${errors} errors)`);
      console.log(JSON.stringify(run));
    }
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
