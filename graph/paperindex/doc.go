// Package paperindex is kg's read side: every paper's date, subjects,
// people and concepts in memory, each subject's, person's and concept's
// papers as a list of rows, and the questions a dashboard asks answered
// over them: facets and rankings (Periods, Top), ordered paper lists with
// cursors (List), co-authors over a filter (CoAuthors), collaboration
// paths (Path), emerging concepts (Emerging) and related work (Resolve,
// Related).
//
// It knows nodes by opaque ids (the graph's node ids as uint64) and dates
// packed (PackDate); it knows nothing of the store, of names or of labels.
// Package graph reads the papers from the store into Facts, keeps one
// Index current with the store's commits, resolves a filter's names into
// a Selection, and turns the ids of an answer into nodes. paperindex may
// import the standard library and graph/burst; never graph, its writer,
// its settles or its Service.
//
// # Facets and lists
//
// Dashboards count papers by year, month, subject, concept or person over
// a filter (subjects, concepts, people, a span of years or months: AND
// between fields, OR within a list), rank the people, concepts or
// subjects of those papers, list them, and find co-authorship paths. The
// counts are exact: a paper is counted once in each bucket it belongs to,
// a concept's papers are exactly those Concept.papers lists.
//
// They are answered from the paper index (this package), not from
// counters in the store. Stored counters for each pair of a filter value
// and a facet value — what "papers of cs.LG that mention X" needs — would
// cost, per paper, its concepts × its people, subjects and months, and
// its concepts squared: 654 counter updates a paper on the arXiv file
// (27 concepts, 5.9 people and 1.7 subjects a paper; measured), more keys
// than the graph itself, and a ranking of the counters on top for top-N.
// Counters for single values only would still leave two filters, and a
// concept's people, to be answered paper by paper from the store, at
// 15–40 µs a paper (a Badger iterator per paper's edges): 0.3–1 s for
// cs.CV. Instead the index holds, for every paper, its date and the
// numbers (dense ordinals) of its subjects, people and concepts (with
// their weights), and for every subject, person and concept its papers as
// an array of row numbers, newest first — 33 MB for the 47,919
// papers, 731 bytes a paper (BenchmarkArXivFacetIndex in graph). A question reads the shortest list its filter names (cut to
// the filter's dates by binary search: lists are date-ordered), checks
// the other conditions row by row, and counts into an array: 25,774 cs.CV
// papers' 700,000 concept mentions in 2–4 ms. An unfiltered count is a
// list's length.
//
// The index is built from one pass over the store (papers, their out- and
// in-edges: 1.8 s for the arXiv store) when first needed; kg serve builds
// it at startup. It follows the store exactly: after each commit the store
// reports the nodes whose values or edges it wrote (CommitNotifier), and
// before its next use the index reads those papers again (a few hundred
// at a time are moved in place; more than an eighth of the papers rebuild
// every list). Whatever changes a paper — ingest, a merge of sources, a
// person's split or merge, a reclustering, a recompute of the concepts —
// changes its edges or its node, so nothing writes the index but that
// (graph's TestFacetIndexFollowsWrites compares it with the stored
// papers after each). Ingest pays nothing for it; kg ingest builds no
// index.
//
// Paper lists (a person's, a subject's, a concept's, a filter's) come
// from the index too, so one order holds everywhere: newest first is by
// date (day, then month, then year: a paper known only by its month comes
// after that month's dated papers), then title; relevance (a concept's
// papers) by the concept's weight in the paper, then newest first.
// Cursors carry the paper's place in the order, so a page follows the
// previous one however the list changed in between.
//
// # Collaboration paths
//
// Path is a breadth-first search from both people at once over the
// index's person → papers and paper → people lists, each step expanding
// the whole frontier of the side whose frontier has fewer papers; the
// first step at which the two sides meet gives the shortest length. Each
// paper is expanded once per side, so a paper of 3,302 authors costs its
// authors once, not once per pair. With a filter, only its papers link
// people. A search that meets nobody within maxLength (≤ 8) answers
// null; one past the request's deadline stops.
//
// # Emerging concepts
//
// emerging ranks the concepts whose use is in a burst at the end of a
// window. What the field does: CiteSpace runs Kleinberg's burst detection
// (2002, "Bursty and hierarchical structure in streams", the batched
// form) on keyword frequencies by period; VOSviewer colours terms by
// their average year; simpler tools rank terms by the ratio of their
// share in a recent span to their share before it.
//
// kg uses Kleinberg's two-state automaton over months (package burst: LastExpected and Mix),
// with CiteSpace's defaults: a concept is in its base state, used by a
// share p0 of the month's papers, or in a burst, at s·p0 with s = 2; a month's cost in a state is −ln of the binomial
// likelihood of its uses at that rate; entering a burst costs γ·ln n (γ =
// 1, n the months with papers). The optimal sequence of states is found
// exactly (Viterbi). A concept is emerging when the sequence ends in a
// burst that began within the window; its score is the burst's weight, Σ
// over its months of cost(base) − cost(burst): how much better a doubled
// rate explains them. Minimum support: the burst holds at least 5 of the
// concept's papers. The window is the filter's months; the months before
// it are the concept's history.
//
// Why this and not a ratio: a ratio needs a split point and a smoothing
// constant, and ranks a concept going from one paper to three above one
// going from 50 to 200; the burst finds its own start and end, and its
// weight grows with both the rise and the papers that show it. Rates, not
// counts: a month with more papers overall is no burst for every concept.
// And rates within subjects: p0 of a month is what the concept's rate in
// each subject over the window gives for that month's mix of subjects (a
// paper of k subjects counts 1/k in each), so a month that holds more of a
// field's papers is no burst of that field's vocabulary. Without it, the
// file's 2026 months, which hold more information-theory papers, made
// "multiple-input multiple-output", "base station", "channel state
// information" and "antenna system" emerge over the whole file; with it
// the list reads as what rose: rubric, world model, agentic reinforcement
// learning, diffusion language model, VGGT, latent reasoning, flow
// matching, tool use, deep research, sycophancy.
//
// # Related work
//
// graph.View.RelatedWork answers what a researcher brings: a draft's text,
// concept names, seed papers (Semantic Scholar's positive examples), papers
// to leave out, a PaperFilter. Paper.related is the same with one seed. It
// runs on the facet index, never on the store's edge lists: a concept's
// papers are a list of rows, each with the concept's weight in it.
//
// The score of a candidate paper is a sum of evidence, each part taken from
// what the field uses:
//   - concepts: the cosine of idf-weighted concept vectors (TF-IDF over
//     concepts, as content-based recommenders and CiteSpace's term maps
//     weigh terms). A concept's weight in a paper is floored at one half
//     (relTermWeight): a concept a paper names is a topic of it. Several
//     seeds sum their vectors, so a paper sharing concepts with several
//     seeds at once ranks first (Semantic Scholar's multi-seed
//     recommendations; Connected Papers' co-similarity). A query concept
//     whose name is inside another's ("model agent" beside "large
//     language model agent") weighs half: the same evidence again.
//   - concepts asked for by name: each adds 2, more than the rest can, so
//     papers naming every concept asked for come before papers naming some.
//   - a draft's rare terms: its key terms that are no concept yet (used by
//     at most 51 papers) are looked up in their recorded uses; their share
//     of the draft's vector adds to the score. A draft finds the paper it
//     describes: first for 100 of 100 arXiv papers, in the top 3 for 100
//     of 100 with its title reworded.
//   - title words: the cosine of idf-weighted title words (the title TF-IDF
//     baseline of the citation data), words in more than a tenth of the
//     papers weighing nothing.
//   - people (co-authorship): each person of the seeds adds 1/log2(2+n/8)
//     for each of their n papers (a person's own work is the work they cite
//     most; a prolific person's every paper is weaker evidence); the sum
//     is taken over the geometric mean of the two teams' sizes, × 3, so
//     that six shared people of a ten-author lab are one reason, not six;
//     and it counts fully only beside a shared topic (a topical score of
//     0.1), 0.4 of it without one: RewardBench 2's related papers are
//     other reward-model benchmarks before its lab's language models.
//     This costs 0.006 of P@10 on ACL citations, where people cite
//     their own papers on other topics.
//   - venue and year proximity: the seeds' venue adds 0.06; a year within a
//     few of the seeds' adds 0.06·e^(−|Δy|/4); a shared subject 0.02.
//
// Costs: a concept of more than 2,000 papers ("large language model":
// 16,670) only adds to candidates already found once there are 500 of
// them; idf and vector lengths are computed once per index change (weigh),
// not per query. Paper.related takes ~4 ms in process on the arXiv store.
//
// Judged by citations (TestRelatedOnACLCitations: ACL Anthology titles,
// people, venues and years, no abstracts; 300 dev queries): P@10 0.140,
// against 0.102 for title TF-IDF and 0.122 for most shared authors. The
// goal of 0.20 is not reached. What the citations reward and kg cannot
// see: popularity. The papers a query's links lead to have a median of 19
// links against 5 for all papers, and journal papers get 22.8 links on
// average against 2.6 for LREC's; a citation count or a venue prior learned
// from the links would be tuning to the answer key. Tried on the dev split
// and left out, none above +0.005: co-authors of the seeds' people
// (additive or as a boost), the topic's prolific people, pseudo-relevance
// feedback, early papers of a growing term, stemming, title bigrams.
package paperindex
