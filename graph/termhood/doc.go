// Package termhood tells the terms of a field from the words its papers
// use: which of the concepts a corpus votes for are ideas people search
// by ("reinforcement learning", "quantization", "reward model") and which
// are words ("space", "stage", "failure", "training data") or fragments
// of longer terms ("natural language" of "natural language processing").
// It takes plain numbers a store keeps for each concept (the papers that
// use it, the papers that rank it among their key terms, its broader
// concept) and returns a verdict; package graph judges its vocabulary
// with it at the end of every settle and before it makes a concept. It
// imports nothing of kg's.
//
// # What the field measures, and what is taken here
//
// Termhood is the degree to which a phrase names a concept of a domain;
// automatic term recognition has measured it for thirty years:
//
//   - C-value (Frantzi, Ananiadou and Mima 2000) scores a multi-word
//     candidate by its frequency less the frequency of the longer
//     candidates it is nested in: a candidate counts for its own,
//     independent uses. Taken: a concept's uses are discounted by those
//     its narrower concepts account for (its papers less theirs, never
//     under a tenth of its papers), so a word that is mostly the head of
//     compounds ("network" in "neural network", "adversarial network")
//     is judged by what is left. C-value gives single words no score at
//     all (log2 of one word is 0); we judge them on other evidence.
//   - NC-value adds the context words a term keeps. Not taken: the
//     context it needs is the stored texts, read again at every judgement.
//   - Weirdness (Ahmad, Gillam and Tostevin 1999) compares a word's
//     frequency in the domain corpus with its frequency in general
//     language; ATR4S (Astrakhantsev 2018) compares it with the other
//     domain-pertinence measures and finds it weak alone and useful
//     combined. Taken, for one-word concepts: the share of papers that use
//     a word, over the chance that a passage of spoken English as long as
//     the corpus's mean text says it (a title and abstract on arXiv, 186
//     words; a title alone in a bibliography, 8: a word in one title in a
//     hundred is as specific there as in one abstract in five), from
//     SUBTLEX-US, 51 million words of subtitles (see
//     SOURCE.md). Spoken English is the reference: no licensed written
//     corpus can be shipped, and speech is what separates everyday words
//     ("failure": weirdness 7, "family": 0.2) from technical ones
//     ("transformer": 350, "segmentation": 10⁴). It does not separate the
//     general academic words ("complexity", "consistency", "detection",
//     all rare in speech), so it is never enough alone.
//   - The CSO classifier and OpenAlex's keywords keep few single-word
//     topics, and technical ones. Taken: a one-word concept needs both
//     domain specificity and evidence that papers are about it.
//
// What kg adds is keyness, the share of the papers that use a concept on
// their own that rank it among their best key terms (the votes that make
// concepts, package graph): a term is what papers are about, a word is
// what they only say. On the judged dev list of the arXiv file's largest
// concepts (testdata/concepts/judged.tsv holds the judged test lists),
// keyness alone separates the multi-word ideas from the words with an AUC
// of 0.93; weirdness and keyness together do for one word what neither
// does alone.
//
// # The rules (Judge)
//
//   - An acronym, or a name (digits, or capitals inside a word that is no
//     English word: "GPT-5", "ImageNet", "Trace2Skill"), is a term.
//   - A name of several words, or one hyphenated word, is a fragment when
//     it is mostly the front of longer concepts: one of them used by 1.5
//     times its papers, or all of them by twice ("natural language", "3D
//     gaussian", "state space" of "state space model").
//   - A name of several words is a term when at least 12% of the papers
//     that use it on its own vote for it: "reward model" 26%, "point
//     cloud" 29%, against "training data" 6%, "computational cost" 1.5%,
//     "ablation study" 0.3%. A hyphenated word is ranked as one word by
//     the extractor and seldom among a paper's best: its bar is 1%
//     ("fine-tuning" 1.3%, "trade-off" 0.4%).
//   - One word is a term when it is technical, a hundred times more common
//     in papers than in speech, and at least 3% of its papers vote for it
//     ("quantization", "segmentation", "reasoning", "entropy"); or when it
//     is twenty times more common and at least 10% vote for it
//     ("hallucination" 14%, "uncertainty" 11%). A word under twenty is an
//     everyday word whatever its papers do ("skill" 2.6, "agent" 3.5,
//     "space" 6). A name that is also an English word ("Stream",
//     "ReVision") is judged as the word: linking finds the word in every
//     paper that says it.
//   - Keyness decides only once a concept's papers are enough for its bar
//     to mean three votes; a concept of fewer papers keeps the benefit of
//     the doubt (a broader concept of two papers that the hierarchy made
//     has no votes at all).
//
// The bars were drawn by reading the judged dev list (the top 400 one-word
// and 320 multi-word concepts of the arXiv store before this package)
// on either side of them: round numbers between the words and the ideas,
// not fitted ones. What they cost: some single-word ideas are judged words
// ("transformer" 1.8% of its papers vote for it, "agent" and "attention"
// are everyday English) and stay findable by search and by their
// multi-word kinds ("vision transformer", "large language model agent",
// "attention mechanism").
//
// # Topics (Topical)
//
// A ranking of rising use (package graph's emerging) shows a term only
// when it is a topic: its keyness over all its papers twice the bar its
// shape needs, names and acronyms always. A phrase of general words
// rises with the topic it describes and is seldom what papers are about
// ("visual evidence" 18%, "memory system" 18%, against "world model" 45%,
// "flow matching" 46%); twice the bar is the round number between them
// on the judged dev list of the emerging.
//
// # Kinds (KindOf)
//
// A concept's broader concept is the longest tail of its name that is a
// concept (package graph); KindOf says whether the modifier before it
// makes a kind of it: not a clause, a verb or a task ("scaling
// reinforcement learning", "captioning reinforcement learning").
package termhood
