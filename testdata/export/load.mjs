// Loads an N-Quads file into Oxigraph (strict parsing: a malformed line
// fails the load) and prints, as JSON, what SPARQL counts in it: the
// statements, the papers, the people and the authorship links, and the
// statements of each predicate. Used by graph/export's tests.
//
//   node load.mjs FILE.nq
import fs from "node:fs";
import oxigraph from "oxigraph";

const file = process.argv[2];
const store = new oxigraph.Store();
store.load(fs.readFileSync(file, "utf8"), { format: "application/n-quads" });
const count = (q) => Number(store.query(q)[0].get("n").value);
const out = {
  statements: store.size,
  papers: count("PREFIX s: <http://schema.org/> SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a s:ScholarlyArticle }"),
  people: count("PREFIX s: <http://schema.org/> SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { ?a a s:Person }"),
  authorship: count("PREFIX s: <http://schema.org/> SELECT (COUNT(*) AS ?n) WHERE { ?p a s:ScholarlyArticle ; s:author ?a . ?a a s:Person }"),
  predicates: {},
};
for (const b of store.query("SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p")) {
  out.predicates[b.get("p").value] = Number(b.get("n").value);
}
console.log(JSON.stringify(out));
