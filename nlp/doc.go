// Package nlp finds the key terms of paper titles and abstracts, and the
// spans of them that may name a concept.
//
// # The term pipeline
//
// Text is repaired (repairText: URLs, LaTeX ties and quotes, words glued by
// slashes or parentheses, words broken at a line end), tokenised by prose
// and tagged by prose's averaged-perceptron model run deterministically
// (tagger.go). A title in Title Case is lower-cased first but for acronyms
// and names, or the tagger reads every word of it as a proper noun.
//
// Candidates are noun phrases (chunk.go), as the published keyphrase
// systems take them (NP: {<ADJ>*<NOUN|PROPN>+}), with what technical
// writing needs: a nominal -ing word heads a phrase ("reinforcement
// learning", "data mining", "instruction tuning") unless an object follows
// it, from a lexicon the arXiv corpus confirms (lexicon.go); a participle
// opens a phrase ("federated learning") but is a verb after a noun or an
// auxiliary; an acronym is a noun whatever its tag; the front of a
// hyphenated modifier is a phrase of its own ("deep learning" in "deep
// learning-based"). Evaluative openers ("novel", "diverse"), dependent words
// ("aware", "specific") and verb forms are trimmed from the front; generic
// words of the genre are never candidates. Every shorter span that may be a
// term counts too, inside the phrase. Acronyms defined in the text ("long
// form (LF)", Schwartz & Hearst) stand for their long form wherever the text
// uses them, alone or inside a phrase ("RL agents" is "reinforcement
// learning agents"); names are canonical (canonical.go): lower case but
// acronyms and names, head singular, American spelling.
//
// Ranking (rank.go) scores each candidate by its use (whole phrases count
// five times more than spans inside longer ones), its first position, an
// acronym definition, and the inverse document frequency in the corpus;
// fragments (the front of a longer phrase, or a span found only inside one
// longer phrase that the corpus uses as often: C-value's test) score
// nothing. DefaultParams were tuned on the train splits of the keyphrase
// benchmarks in ../shared (Inspec train, KDD, WWW, SemEval-2010) and
// checked on Inspec dev: see nlp/benchmark_test.go.
//
// Mentions (mention.go) are found by surface form, not by tags: every span
// of the title and abstracts, hyphenated words cut into their parts, with
// its ConceptKey; graph looks them up in the concept vocabulary.
package nlp
