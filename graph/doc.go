// Package graph is the domain of kg: node and edge kinds, identity
// (normalised titles and names), the storage interface it needs, the ingest
// pipeline that turns parsed records into graph writes, and the traversals
// (co-authors, neighbourhoods, related papers) that the GraphQL layer serves.
//
// graph imports none of kg's other packages; store, nlp and schema depend on
// it, and cmd/kg wires them together.
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
//     "visual" (2%), "real-world", "state-of-the-art", "support", a
//     method named by a common word ("CritiCal").
//
// On the 47,919-paper arXiv file the rule makes about 0.7 concepts a
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
// concept: "agent reinforcement learning" → "reinforcement learning";
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
// # Related papers
//
// Score = Σ over shared concepts of `scoreA·scoreB·ln(1+N/df)` + 1 per shared
// author + `0.1·ln(1+N/df)` per shared subject (subjects only for papers already related by concept
// or author). Each concept/author contributes at most 2,000 candidates, so cost is bounded however
// large the graph.
package graph
