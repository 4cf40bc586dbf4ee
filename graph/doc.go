// Package graph is the domain of kg: node and edge kinds, the storage
// interface it needs, the Service with its writer, ingest pipeline and
// settles, and the View that the GraphQL layer reads through. It wires
// pure sub-packages, as Prometheus tsdb wires index and chunkenc: each
// takes plain values (ids, counts, strings) and returns answers; graph
// reads the store, calls them, and writes.
//
//	graph/ident      identity keys: titles, names, concepts, arXiv ids,
//	                 DOIs, ORCID iDs, subject codes, LaTeX to text
//	                 (imports nothing of kg)
//	graph/burst      Kleinberg's burst automaton and the subject mix
//	                 (nothing of kg)
//	graph/paperindex the read side: every paper in memory, and facets,
//	                 rankings, paper lists, paths, emerging concepts and
//	                 the related-work score over it (burst)
//	graph/people     who a name on a paper is: evidence, clustering,
//	                 name priors (ident)
//	graph/termhood   which concepts are terms of the field (nothing of kg)
//	graph/vocab      the concept vocabulary's rules and its Bloom filter
//	                 (ident)
//	graph            domain types, Service, writer, pipeline, settles,
//	                 View (all of the above)
//	graph/source,    readers of outside formats and export writers; above
//	graph/export     graph, beside store, nlp and schema
//
// graph imports none of kg's other packages; store, nlp and schema depend on
// it, and cmd/kg wires them together. A sub-package never imports graph.
//
// Files of graph: model.go and ids.go (the domain's types), ingest.go and
// pipeline.go (the Service, ingest and its batches), writer.go (one write
// transaction's work), authors.go, person.go, profile.go and
// corrections.go (people in the store), concepts.go, conceptnodes.go,
// votes.go, reject.go, cooccur.go, terms.go, pending.go, conceptgraph.go,
// settle.go, rescan.go and recompute.go (the concept layer in the store),
// query.go and traverse.go
// (the View's lookups and neighbourhoods), index.go, questions.go and
// related.go (the read side's wiring), exportgraph.go (exports).
//
// # Concepts
//
// Key terms and concepts are different things. A key term answers "what is
// this paper about?": a short ranked list per paper, what keyphrase
// benchmarks score (TermExtractor, package nlp). A concept answers "which
// papers are about X?": a node of the corpus vocabulary, linked to every
// paper that mentions it.
//
// Which terms are concepts. A paper votes for its best key terms: its ten
// best, each used at least twice in its title and abstracts; a single
// common word ("skill", "hallucination") only when the paper is about it
// (among its five best and used three times, or among its ten best and
// used five times). A term becomes a concept node when
//
//   - two papers vote for it, or
//   - a paper introduces it and it is among that paper's five best terms:
//     an acronym of the title or whose long form is in the title
//     ("Vision-Language Process Reward Models (VL-PRMs)"), or the named
//     method before the title's colon ("Trace2Skill: ..."), or
//   - it is the broader term of a concept, two words or more, and more
//     papers use it than the concept ("policy optimization" when "group
//     relative policy optimization" becomes a concept).
//
// Generic words of the genre (method, model, framework, task, data,
// results, learning ...), evaluative openers ("novel", "diverse skills"),
// verb- and adverb-led fragments ("applying RL") and the fronts of longer
// terms ("reinforcement" of "reinforcement learning") never are: the
// extractor does not offer them (package nlp). Two checks against the
// corpus remove what a tagger's slips still let through:
//
//   - the front of a longer term: a new term of several words (or a
//     hyphenated one) is no concept when a longer term that starts with it
//     is used by 1.5 times the papers that use it on its own
//     (frontOfLonger): "large language" (48 papers, from "Large Language
//     and Vision Models") beside "large language model" (13,745), "named
//     entity", "vision-language";
//   - a modifier or a verb: a one-word concept goes when fewer than 40% of
//     the papers that say the word use it as a noun phrase (reject.go):
//     "visual" (2%), "real-world", "state-of-the-art", a method named by
//     a common word ("CritiCal").
//
// Terms, not words. A concept node is a term of the field, an idea people
// search by; what a dashboard ranks must read like ideas. Votes alone made
// nodes of words ("space" in 4,991 papers, "stage", "failure", "training
// data") that every paper says and few are about. Package termhood
// judges every concept (terms.go, judgeTerms, in every settle before it
// links, and at the end of a recompute): keyness (the share of the papers that use it on
// their own, C-value's independent uses, that vote for it), weirdness
// against spoken English for one word (passages as long as the corpus's
// texts: the store counts their words, so titles alone are judged as
// titles), and the fronts of longer terms; a name that opens with an
// evaluative word ("state-of-the-art model") or names a term and a genre
// word ("natural language processing task") is none either. A concept
// judged no term is dropped as a modifier is (rejectPending), and no vote
// makes it again until RecomputeConcepts judges the whole corpus afresh.
// The papers an ingest reads link to the concepts it made only once the
// settle has judged them (pending.go): most are rejected, and links made
// and unmade were a third of an ingest's writes; before a concept is
// made, termhood.Screen refuses what no later evidence could save. Words
// stay findable: search finds papers by the words of their titles.
//
// On the 47,919-paper arXiv file the rule makes about 0.6 concepts a
// paper; the top ten terms of every paper would make eleven.
//
// Which papers are linked. A paper is linked to every concept its title or
// abstracts mention, in any surface form: the name in any case, hyphen or
// space, plural, British or American spelling (ConceptKey), an alias, an
// acronym the paper defines, or a bare acronym that most papers defining it
// define as that concept ("RL"; a bare "SR", super-resolution to some and
// symbolic regression to others, is linked to neither); also inside a
// longer term ("deep reinforcement learning agents" mentions reinforcement
// learning). Mentions are found by surface form, not by the tagger, which
// reads "learning" as a noun in one sentence and as a verb in the next. The
// link's weight is the concept's score as a key term of the paper,
// relative to the paper's best: Paper.concepts lists them best first, and
// the first are the paper's key terms.
//
// Concepts made after their first papers. A term becomes a concept when
// its second paper votes for it; the papers read before used it too. Each
// paper records the terms it uses that are no concept yet, with the weight
// a link would have: the first paper of a term in the term's document
// frequency counter, the next ones (up to maxPostings) as IdxTermUse
// entries. SettleConcepts links them when the term becomes a concept, at
// the end of every ingest: each paper's mentions are rewritten once with
// every concept it gains. A mention that was no candidate of its paper
// (an acronym inside a hyphenated word is recorded too) is linked only by
// RecomputeConcepts, which rebuilds the whole layer from the stored texts
// in an order-independent way.
//
// Some names are found by scanning the stored texts instead (one-word
// names, acronyms, names used by more papers than uses are recorded for;
// markBackfill): the settle scans for every name of each concept marked.
// A concept the settle makes itself (the broader term of a word it drops)
// is scanned for in a further pass of the same settle, and a recorded use
// of a pair outweighs a scan's finding of it (gains.scanned): a settle ends
// where a settle run again would, however it was interrupted
// (TestSettleIsAFixedPoint, the crash test).
// A paper's first scan stores a print of its text (ScanPrinter: a Bloom
// filter of its words and of its neighbouring words joined, ~1 KB); later
// scans read only the texts whose print may spell one of the names from
// neighbouring words. A print errs one way, so a scan by prints links
// exactly the papers a scan of every text links (TestRescanReadsByPrint
// compares the digests), and it is dropped when a record brings its paper
// new text.
//
// One node per idea. Names are the form people write: common words lower
// case and American, acronyms and names as written ("RL", "GPT-4o",
// "Trace2Skill"), the head singular. An acronym inside a longer name stands
// for its long form ("agent RL" is agent reinforcement learning), unless
// papers mostly use it bare, as the name people know the thing by ("BERT",
// "RGB", "GPU": AcronymSpelledOut). A concept first named by its acronym
// takes its long form as name when a paper spells it out.
//
// Hierarchy. A concept's broader concept is the longest tail of its words
// (split at spaces, never inside a hyphenated word) that is itself a
// concept and of which it names a kind (termhood.KindOf: "scaling" or
// "captioning reinforcement learning" is no kind of it): "agent reinforcement learning" → "reinforcement learning";
// "vision-language process reward model" → "reward model" when "process
// reward model" is no concept. Generic tails ("learning", "model") are
// never concepts, so they are never broader concepts either.
//
// Co-occurrence counts, for each pair of concepts, the papers that have
// both among their ten best-weighted concepts (Concept.related ranks by the
// Ochiai coefficient). A paper's ten change as concepts are made and
// linked, so its pairs are counted when its mentions have settled, at the
// end of the ingest (the papers to count carry an IdxCoDirty mark, the set
// counted for a paper is kept on it). A few papers are counted one by one,
// each in the transaction that records its new set; many (a large file, a
// recompute) make every pair be recounted from one pass over the papers'
// mentions and set, not moved: each pair is written once, without being
// read (on the arXiv file: 1.5 million pair changes in 21 s became one
// million pairs set in 12 s). Either way a settle stopped between any two
// transactions is completed exactly by the next (TestSettleStoppedAnywhere;
// a recount stopped half-way leaves a flag that makes the next one recount
// too).
//
// # Exact weights
//
// Counters move only together with the fact they count, inside the same
// transaction: a co-author pair gains one when an authorship edge is
// created; a paper's co-occurrence pairs (among its 10 best concepts) are
// counted when its concepts have settled, at the end of an ingest, by the
// difference between the set last counted for it (kept on the paper, in
// the same transaction) and its set now; a large ingest recounts every pair
// instead and sets it. A settle stopped between any two transactions is
// completed exactly by the next run (tested at every stop). Papers with
// more than 100 authors (k authors make k(k−1)/2 pairs: 37,000 for one
// arXiv paper of 274 authors, more than a transaction holds) are listed
// under each author instead and added in when co-authors are read, so
// weights stay exact. When a name's people are clustered again, a paper
// that changes person moves with its pair counters, list entries and
// degree counters in the same transaction (reconcile.go). Re-ingesting the
// same files leaves the store byte-identical (tested with store's Checksum
// over every key and value), and ingest order does not change counts or
// weights (TestPeopleOrderIndependent and the pipeline tests).
//
// # Identity
//
// A paper is found by its arXiv id (version dropped), else its DOI (lower case,
// resolver prefix dropped), else its title key — refused when the two carry different arXiv ids,
// DOIs or years (papers can share a title). The title key: LaTeX rendered
// (`GD$^2$PO` → `GD²PO`, `\textbf{D}ebiasing` → `Debiasing`), Unicode compatibility-folded (`²` → `2`),
// diacritics, case, punctuation and spacing folded. Merging keeps every source document and every
// distinct abstract. An author is the normalised name (NFC, case and spacing folded; readers turn
// "Last, First" around and render LaTeX accents, so "Schütze, Hinrich", "Sch{\"u}tze, Hinrich" and
// "Hinrich Schütze" are one); lookups also ignore diacritics. A name with initials ("H. Schütze") is
// a known full name only when exactly one author of that last name and those initials has written
// with the paper's other authors; two different full first names never merge. Every spelling seen
// is kept as an alias (`Author.aliases`). GitHub links in abstracts become Repository nodes owned by an Organization.
//
// # People who share a name
//
// An author node is a person: a cluster of the papers of one name (a
// block: the papers whose author NameKey is the same, with the initials
// that the rule above gave it). Package people decides who is who from
// each paper's evidence (people.ClusterPeople; its doc says what the field
// does, the rule, and what it scores on the arXiv file); graph gathers the
// evidence from the store and applies the partition.
//
// In the store, ingest puts a paper with the name's most prolific person
// and marks the name and the names of its co-authors (their evidence
// changed). The settle at the end of every ingest clusters each marked
// name again from all its papers — planned on snapshots, one goroutine
// per core — and moves the papers whose person changed, with their list
// entries, degree counters, co-author pair counters and large-collaboration
// entries, in the transaction that clears the mark. Each new cluster keeps
// the id of the person who held most of its papers. A name read again on
// a paper keeps the person it was given there.
//
// A person's profile — top 100 co-authors by shared papers then name,
// homonym count, main subjects and years — is rebuilt at the settle for
// the people whose papers or co-authors changed, and stored as one value:
// a co-author query reads it and the names it lists. Until the settle
// rebuilds it, the value is absent and queries compute it.
//
// # The read side
//
// Facets, rankings, paper lists, collaboration paths, emerging concepts
// and related work are answered from an index of every paper held in
// memory (package paperindex: its doc says how it is laid out, why it is
// kept in memory, and how each question is scored). index.go builds it
// from one pass over the store and keeps it current with the store's
// commits; the View methods (questions.go, related.go) resolve names into
// a Selection, ask the index, and turn its ids into nodes. The bursts of
// emerging concepts are package burst (Kleinberg's automaton).
//
// A paper's date is its first version's, as precise as its sources give
// it: arXiv metadata's first version, an Atom entry's published day,
// BibTeX's month or biblatex's date; without one, the YYMM of its arXiv
// id (the month of first submission: the arXiv file lists no versions).
//
// Emerging concepts are topics, not vocabulary: a phrase of general words
// whose use rose with a topic ("visual evidence" with thinking-with-images papers,
// "memory system" beside "agent memory", "task completion") is a term but
// seldom what its papers are about. Emerging shows only concepts whose
// keyness over all their papers is twice the bar their shape needs to be
// a term (termhood.Topical; names and acronyms always): "world model"
// 0.45, "flow matching" 0.46, "visual evidence" 0.18. Judged by hand
// (judged_test.go), ideas among the 25 emerging went from 0.76 to 0.92 on
// the whole arXiv file; the price is topics papers name in passing ("tool
// use" 0.13, "research agent" 0.11 are dropped) and shorter lists in a
// subject (cs.CL: 14, 12 of them ideas). Tried and dropped: weighing a
// burst by its papers' key-term weights (no gain), and the share of burst
// papers that name the concept in their title (words 0.02–0.14, ideas
// 0.05–0.83: no bar between them).
//
// # Exports
//
// View.Export streams a part of the graph to a sink (graph/export writes
// GraphML, GEXF, VOSviewer, RDF N-Quads and Neo4j CSV from it): every node
// once, then the edges whose ends were sent, so a writer can close its
// node section and stream the rest. Three scopes. The whole graph reads
// the nodes kind by kind, the stored edges node by node and the pair
// counters in key order: memory holds a few numbers a node (its papers and
// main subject, from the facet index), not the graph (7–11 s and at most
// 0.70 GB RSS on the 47,919-paper store, testdata/bench/README.md). A
// filter's papers come with their people, subjects and concepts, and the
// pairs are counted over those papers only, as Author.coauthors(filter)
// counts. A neighbourhood is what Neighborhood returns. Each node carries
// its papers and the subject most of them are in (a map's cluster); a
// person who shares a name carries the label lists give ("Yang Liu (cs.CV;
// with Wei Zhang)"), looked up only for the names several people carry
// (14,190 of 141,985 people), so the export reads no profile for the rest.
// Co-authorship weights leave out papers of more than BigPaperAuthors
// authors, as the stored pairs do: in the arXiv file, collaboration
// reports would add 6.2 million pairs to its 0.97 million, a clique no map
// can show (VOSviewer itself leaves out papers of more than 25 authors by
// default); their people stay linked to them by AUTHORED.
package graph
