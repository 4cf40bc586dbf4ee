// Package ident makes two spellings of one thing one key: the identity of
// papers, people, subjects and concepts as kg's graph uses it.
//
//   - TitleKey, NameKey, FoldKey: a title's, a name's or any text's folded
//     form (LaTeX rendered, accents and case folded, punctuation dropped),
//     by which the writer finds the node a record names;
//   - ConceptKey and ConceptWordKeys: a concept's key, with British
//     spellings folded to American ones (spelling.go's explicit lists) and
//     plural acronyms to singular;
//   - ArXivKey, DOIKey: identifiers without their version and prefix;
//   - LatexToText and CleanText: what a person reads of a field;
//   - SubjectName, CanonicalSubject, LooksLikeSubject: arXiv's category
//     codes.
//
// Every function is pure: text in, key out, safe for concurrent use. The
// package imports only the standard library and golang.org/x/text, and
// none of kg's packages: graph and everything above it call it, so a key
// means the same in the writer, the readers of sources, the term
// extractor and the GraphQL layer.
package ident
