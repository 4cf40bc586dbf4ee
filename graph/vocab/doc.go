// Package vocab holds the rules of kg's concept vocabulary that need no
// store: which names are one acronym or one word (IsOneAcronym, OneWord),
// when a one-word term is a modifier rather than a noun (IsModifier,
// NounShare), when two long forms of one acronym name one idea
// (FunctionWordVariant), when a name ends in a genre word and so names its
// front twice (GenreTail), how a concept's tail entry is written
// (TailTerm), and the Bloom filter every writer consults before it looks
// a text's spans up in the concept index (Filter).
//
// Package graph applies them where the store is: the votes that make a
// term a concept, the checks a new concept must pass, the hierarchy, the
// rejection of modifiers (graph/doc.go, "Concepts", tells the whole
// story). Which terms are terms of the field is package termhood. vocab
// imports the standard library and graph/ident only.
package vocab
