// Package schema serves the graph over GraphQL and HTTP: the schema
// (types.go, described in docs.go, printed by SDL), the handler with its
// limits, GraphQL over HTTP, persisted queries and metrics.
//
// Every request is checked before graphql-go validates it (v0.8.1 crashes on cyclic fragments and
// validates in quadratic time): body ≤ 1 MiB (32 MiB with the write token), query text ≤ 64 KiB,
// brace nesting before parsing, then on the parsed document: fragment cycles, depth ≤ 12, fields ≤
// 5,000, aliases ≤ 200, fragments ≤ 500 (all counted with fragments expanded, stopping at the limit),
// then the cost: each field counts once per item its enclosing lists may return (`first` given,
// defaulted, or inherited from a connection or neighbourhood; 10 for lists without `first`), against
// `--cost-budget` (50,000). `first` has a maximum, cursors and ids are parsed and checked, each
// request has a deadline (`--timeout` 10 s) that resolvers check, a panicking resolver becomes an
// `INTERNAL` error on that field and is logged with its stack. graphql-go returns from `Execute` when
// the request's context ends but leaves its executor running: kg gives it a context that never ends
// and stops resolvers on the request's own, so the request's snapshot is closed only after the last
// resolver (a race the soak test found). HTTP server timeouts: headers 5 s, body 30 s.
//
// Conformance with the ecosystem (`TestConformance`, run by `go test` when Node.js is installed;
// `.ci/run` installs it; skipped, saying so, without it). Against `kg serve` on the seeds, with the
// reference implementation `graphql` 16.11.0 and `graphql-http` 1.22.4 from the npm registry (pinned
// in `testdata/conformance/package-lock.json`): `getIntrospectionQuery` with every option is
// answered and loads into `buildClientSchema`; graphql-js's `printSchema` of it is
// `schema/testdata/schema.graphql`, line for line; every query of the README and of
// `schema/testdata` validates, and graphql-http's own client (`createClient`) runs the README's
// queries unchanged (with variables on the seeds) and gets data without errors; the graphql-http
// `auditServer` reports 58 ok, 0 warnings and 2 notices. Clients tried so far: those two, as a
// new user's script would use them, and GraphiQL 4.1.2 (`GET /graphql` in a browser, run in
// Chromium by TestExplorerInBrowser); Apollo Client, urql, graphql-codegen, Postman and Grafana are
// not tried yet. The two notices ("MAY use 4xx … if parameters are invalid") concern `application/json`
// requests, which keep getting 200 with the errors in the body, as older clients expect and the
// spec allows; with `Accept: application/graphql-response+json` the same requests get 400.
//
// Automatic persisted queries (Apollo's protocol, as Apollo Client's persisted-query link and
// urql's `persistedExchange` send it): `extensions.persistedQuery {version: 1, sha256Hash}` without
// the query gets `PERSISTED_QUERY_NOT_FOUND` until the client sends the query once with its hash;
// then the hash alone runs it, over POST or GET (`?extensions=…`, cacheable with its `ETag`). A hash
// that is not the query's SHA-256 is refused. The server keeps at most 1,024 queries and 8 MiB of
// text, and starts over when full (clients register again, one round trip each)
// (`TestPersistedQueries`).
//
// Introspection (what GraphiQL, Apollo, urql, codegen and Postman send first): the standard
// query of graphql-js 16 with every option on (`getIntrospectionQuery`: descriptions,
// `specifiedByURL`, `isRepeatable`, schema description, deprecated input values, `isOneOf`) is
// answered (`TestIntrospection`; graphql-go v0.8.1 lacked those fields, `schema/introspection.go`
// adds them). Its nesting is the schema's, so it has its own bounds instead of the depth limit: ≤ 20
// levels below `__schema`/`__type`, ≤ 3 lists inside lists (types → fields → args), ≤ 3
// introspection fields a query.
//
// Writes over HTTP. `mutation { ingest(name, text) }` takes documents as text in any format `kg
// ingest` reads. It needs `Authorization: Bearer <token>` matching `--write-token`/`KG_WRITE_TOKEN`
// (compared in constant time); with no token configured, or with `--read-only`, it answers
// `WRITES_DISABLED`; a missing or wrong token gets `UNAUTHENTICATED`. Reads stay open. Ingest and
// queries run together: queries read snapshots, writes take turns (tested under `-race`).
//
// CORS (`--cors-origins https://dash.example.org,…` or `*`): allowed origins are echoed and
// preflights answered (204); others get no CORS headers.
//
// `/metrics` (Prometheus text): `kg_http_requests_total{path,status}`,
// `kg_http_request_duration_seconds` (histogram by path), `kg_graphql_errors_total{code}` (every
// refusal and error by code), `kg_store_bytes`, `kg_go_heap_bytes`, `kg_goroutines`,
// `kg_process_resident_bytes`.
//
// Backup, restore, replicas. `kg backup` writes Badger's backup stream; `kg restore` loads it into
// an empty folder (the id sequence comes with it: new ids never collide, tested); `kg serve
// --read-only` serves it. A backup is checked chunk by chunk while loading: Badger's `Load` panics on
// a garbage length prefix.
//
// Crash safety. Each document is one atomic unit (several share a Badger transaction; a failing one
// is rolled back alone). `TestIngestSurvivesSIGKILL` kills `kg ingest` of 1,000 real arXiv records
// with SIGKILL, reopens the store, runs the same ingest again and compares with a clean ingest: same
// counts and the same `graph.Digest` (a SHA-256 over every node by its natural identity, every edge
// and pair counter by the identities at both ends, with weights; ids differ between the two runs, so
// a checksum over raw keys could not compare them). It found a real bug on its first runs: the
// absent-key filter, when built while a batch was committing, missed that batch's keys, so later
// reads of them answered "absent" (3 duplicate authors and a lost subject in 1,000 records; 124
// extra authors over the arXiv file). Fixed; `TestKeyFilterBuiltDuringACommit` fails without the
// fix. `kg stats --digest` prints the same digest for operations (compare a replica with its source).
//
// Cost of a request. Documents are parsed and validated once per query text. A list's per-item
// reads are batched: `Paper.authors`, `subjects` and `concepts` return graphql-go thunks, which it
// calls breadth first after the level's resolvers, and the first reads the edges of every queued
// paper with one Badger iterator (`View.Prefetch`; a page of 18 papers with all three: 3 iterators,
// not 54). String fields answer `*string` (graphql-go formats any other value with `fmt.Sprintf`),
// and responses are encoded by a type switch that writes encoding/json's bytes (`encodeResponse`,
// fuzzed against it). What remains is graphql-go's executor: about 100 µs for a page of 20 papers,
// mostly a `ResolveInfo` copied to the heap in every `completeValue` call (a closure captures it)
// and the stack growth of the goroutine it starts per request: the reason a page over HTTP costs
// ten times the `graph` call behind it.
//
// # Explorer
//
// GET / is the explorer (explorer/index.html, explorer.js: plain
// JavaScript, no build step): a search box over people, papers, concepts
// and subjects (Query.search); the chosen node's neighbourhood drawn with
// Cytoscape 3 and its built-in force layout (cose), coloured by kind with
// a legend, people sized by how often they wrote with the centre, edges
// between co-authors labelled with their shared papers, and the same
// nodes listed under the graph as links (for keyboards, screen readers
// and narrow screens); a click on a node opens its details (a paper's
// abstract, people, concepts, and related papers with their reasons; a
// person's co-authors with the shared papers, concepts and papers), a
// double click or "Expand" re-centres on it; filters by kind (the graph
// asks only for the kinds shown, so its 80 places go to them; a concept
// opened from the search shows its map of concepts first, since its
// papers would come in the order they were stored, while its details list
// them most relevant first; a person of more than 40 papers, their
// co-authors, closest first) and by year range; the URL's hash holds the view (#node=…&depth=…&hide=…&from=…&to=…&sel=…),
// so a link reproduces it; "Export this view" downloads Query.export; a
// dashboard of the centre's papers (a person's, a concept's, a subject's)
// per month (per year where the sources give no month) and their top
// concepts (or, for a concept, its top people), drawn with Chart.js 4.
//
// GET /graphql in a browser is GraphiQL 4 (4.1.2): its standalone bundle
// (graphiql.min.js, graphiql.min.css) needs only React 18's UMD files,
// where GraphiQL 5 needs a bundler, and kg has no JavaScript build. Schema
// docs and completion come from introspection.
//
// Every file ships in the binary (go:embed), gzip-compressed once at start
// and revalidated by ETag. The vendored libraries (explorer/vendor, their
// versions and SHA-256 in vendor/VERSIONS, licences in vendor/licenses)
// are refreshed from the npm registry by explorer/refresh-vendor.sh. The
// pages carry a Content-Security-Policy that allows scripts, styles, data
// and connections from this server only, so no request leaves the
// machine. TestExplorerInBrowser drives Debian's Chromium (headless,
// through the DevTools protocol with chromedp) against a server holding
// the seed graph, behind a proxy that fails every request off this
// machine: it searches Xiaoxi Jiang, finds Guanjun Jiang drawn with weight
// 7 and the papers, clicks a paper's dot on the canvas and reads its
// details and abstract, waits for both plots, reloads the view's URL in a
// 400 px window (no horizontal scrolling, graph and details full width),
// runs GraphiQL's first query, and fails on any console error. On the
// seeds: 222 KB transferred for the explorer (661 KB unpacked), the first
// graph 1.3–2.9 s after navigation with the search and the click.
package schema
