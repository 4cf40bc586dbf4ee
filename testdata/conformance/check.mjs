// Checks a running kg GraphQL endpoint with the reference implementation
// (graphql-js) and the GraphQL-over-HTTP audit (graphql-http); run by
// schema/conformance_test.go:
//   node check.mjs URL QUERIES.json [RUNS.json]
// prints one JSON object: the introspection's errors, the schema printed
// by graphql-js (sorted), the queries that do not validate, the audit, and
// what graphql-http's client got for each operation of RUNS.json
// ({name, query, operationName, variables}).
import {
  buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, parse, printSchema, validate,
} from 'graphql';
import { auditServer, createClient } from 'graphql-http';
import { readFileSync } from 'node:fs';

const [url, queriesFile, runsFile] = process.argv.slice(2);
const out = { introspectionErrors: null, sdl: '', invalid: [], audit: [], runs: [] };
const query = getIntrospectionQuery({
  descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true,
  schemaDescription: true, inputValueDeprecation: true, oneOf: true,
});
const res = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
  body: JSON.stringify({ query }),
});
const body = await res.json();
out.introspectionStatus = res.status;
if (body.errors) out.introspectionErrors = body.errors;
if (body.data) {
  const schema = buildClientSchema(body.data);
  out.sdl = printSchema(lexicographicSortSchema(schema));
  for (const { name, query } of JSON.parse(readFileSync(queriesFile, 'utf8'))) {
    try {
      const errors = validate(schema, parse(query));
      if (errors.length) out.invalid.push({ name, errors: errors.map((e) => e.message) });
    } catch (e) {
      out.invalid.push({ name, errors: [String(e.message)] });
    }
  }
}
for (const r of await auditServer({ url })) {
  out.audit.push({ id: r.id, name: r.name, status: r.status, reason: r.reason ?? '' });
}
if (runsFile) {
  const client = createClient({ url });
  for (const run of JSON.parse(readFileSync(runsFile, 'utf8'))) {
    try {
      const result = await new Promise((resolve, reject) => {
        let got;
        client.subscribe(
          { query: run.query, operationName: run.operationName, variables: run.variables },
          { next: (r) => { got = r; }, error: reject, complete: () => resolve(got) },
        );
      });
      out.runs.push({ name: run.name, errors: result?.errors ?? null, data: result?.data ?? null });
    } catch (e) {
      out.runs.push({ name: run.name, errors: [{ message: String(e?.message ?? e) }], data: null });
    }
  }
  client.dispose();
}
console.log(JSON.stringify(out));
