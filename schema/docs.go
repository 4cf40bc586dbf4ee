package schema

import (
	"fmt"
	"strings"

	"github.com/graphql-go/graphql"
)

// docs describes what the definitions in types.go leave undescribed, by
// "Type", "Type.field", "Type.field(arg)" or "Enum.VALUE": what a field
// returns, in which order, its defaults and maximum, and what an unknown
// name gives. GraphQL tools show these as the schema's documentation
// (GraphiQL's docs pane, codegen's comments); TestEverythingDescribed
// fails on anything left without one, and describe on a key that names
// nothing (a renamed field would lose its text silently otherwise).
var docs = map[string]string{
	"Query":    "Reads. Every list is ordered, and its first argument has a default and a maximum; above the maximum the field is an INVALID error, never a shorter list.",
	"Mutation": "Writes. They need the header Authorization: Bearer <write token> (kg serve --write-token); without a token configured, or with --read-only, they answer WRITES_DISABLED.",

	"Query.author(name)":        "A name as written; case, spacing and diacritics are ignored. Of several people who carry it, the one with most papers (Query.authors lists them all).",
	"Query.authors(name)":       "A name as written; case, spacing and diacritics are ignored.",
	"Query.authors(first)":      "How many, most papers first: default 10, at most 100.",
	"Query.paper(id)":           "A paper id (\"paper:17\"). Give id or title.",
	"Query.paper(title)":        "A title in any spelling (case, punctuation, LaTeX), or the short name before its colon (\"GD2PO\").",
	"Query.subject(code)":       "An arXiv category code, e.g. cs.LG.",
	"Query.concept(name)":       "A name or alias in any case, plural, hyphen or space, British or American spelling (\"RL\", \"policy optimisation\").",
	"Query.node(id)":            "An id as returned by any id field (\"author:3\").",
	"Query.search(text)":        "Words to find in labels (titles, names, codes, concept names).",
	"Query.search(kinds)":       "Only nodes of these kinds; default every kind.",
	"Query.neighborhood(id)":    "The node to start from.",
	"Query.neighborhood(depth)": "Hops from the node: 1 (default) to 3.",
	"Query.neighborhood(kinds)": "Only nodes of these kinds (the start node is always included); default every kind.",
	"Query.neighborhood(first)": "At most this many nodes: default 50, at most 500.",

	"Mutation.splitAuthor(author)":   "The person to split (an author id).",
	"Mutation.splitAuthor(papers)":   "The papers (ids) to make a person of their own; at least one, not all of the person's.",
	"Mutation.splitAuthor(note)":     "Who asks, or why; kept with the correction (at most 200 bytes).",
	"Mutation.mergeAuthors(authors)": "Two or more author ids of people who carry the same name.",
	"Mutation.mergeAuthors(note)":    "Who asks, or why; kept with the correction (at most 200 bytes).",
	"Mutation.ingest(text)":          "The documents: a profile page, an arXiv-subjects listing, arXiv JSON lines, an arXiv Atom feed or BibTeX; at most 32 MiB.",

	"Kind.PAPER":        "A publication.",
	"Kind.AUTHOR":       "A person who wrote papers. People who share a name are told apart by their co-authors, subjects and words (Author.homonyms).",
	"Kind.SUBJECT":      "An arXiv subject category (cs.LG).",
	"Kind.CONCEPT":      "An idea of the corpus vocabulary (\"reinforcement learning\").",
	"Kind.REPOSITORY":   "A code repository linked from an abstract.",
	"Kind.ORGANIZATION": "The owner of code repositories (a GitHub user or organisation).",

	"Paper":              "A publication: every source document it was read from is merged into one node.",
	"Paper.year":         "Year of the first version (arXiv) or of publication; null when unknown.",
	"Paper.repositories": "Code repositories linked from its abstracts, by URL.",
	"Paper.concepts(first)": "How many, best first: default 10, at most 100. " +
		"A paper lists every concept it mentions; the first are its key terms.",
	"Paper.related(first)": "How many, best first: default 10, at most 100.",

	"Author":                  "A person: the papers of one name clustered by co-authors, subjects, words, and ORCID iDs and affiliations where sources give them. Different spellings of one name are one name (aliases).",
	"Author.homonyms":         "How many other people carry the same name.",
	"Author.disambiguation":   "For people who share a name, what tells this one apart: main subjects, top co-authors, years and papers (\"cs.CV, cs.LG; with Wei Zhang, Jun Li; 2025–2026; 12 papers\"); null when nobody shares the name.",
	"Author.coauthors(first)": "How many, most shared papers first: default 10, at most 100.",
	"Author.concepts(first)":  "How many, best first: default 10, at most 100.",

	"Coauthor":        "Someone who wrote papers with an author.",
	"Coauthor.author": "The co-author.",

	"Concept":                 "An idea of the corpus vocabulary, linked to every paper whose title or abstracts mention it in any surface form (case, plural, hyphen or space, spelling, a defined acronym, inside a longer term).",
	"Concept.broader":         "The concept its name narrows (\"agent reinforcement learning\" → \"reinforcement learning\"); empty or one.",
	"Concept.narrower":        "Concepts whose broader concept it is.",
	"Concept.related(first)":  "How many, highest weight first: default 10, at most 100.",
	"WeightedConcept":         "A concept with a weight.",
	"WeightedConcept.concept": "The concept.",
	"WeightedConcept.weight":  "For a paper: the concept's key-term score in the paper relative to its best, in (0, 1]. For an author: summed over the author's papers. For a related concept: the Ochiai coefficient.",

	"Subject":                   "An arXiv subject category.",
	"Repository":                "A code repository linked from a paper's abstract.",
	"Repository.owner":          "The user or organisation that owns it; null when the URL names none.",
	"Organization":              "A GitHub user or organisation owning repositories.",
	"Organization.repositories": "Its repositories, by URL.",

	"RelatedPaper":                "A paper related to another, with the reasons.",
	"RelatedPaper.paper":          "The related paper.",
	"RelatedPaper.score":          "Σ over shared concepts of scoreA·scoreB·ln(1+N/df), + 1 per shared author, + 0.1·ln(1+N/df) per shared subject.",
	"RelatedPaper.sharedConcepts": "Concepts both papers mention.",
	"RelatedPaper.sharedAuthors":  "Authors of both papers.",
	"RelatedPaper.sharedSubjects": "Subjects of both papers.",

	"PaperConnection":            "A page of papers (Relay connection).",
	"PaperConnection.totalCount": "Papers in the whole list, not only this page.",
	"PaperConnection.nodes":      "The papers of this page, in list order.",
	"PaperConnection.edges":      "The papers of this page with their cursors.",
	"PaperConnection.pageInfo":   "Whether more pages follow, and the cursor to ask for the next.",
	"PaperEdge":                  "A paper of a page and its cursor.",
	"PaperEdge.cursor":           "Pass as after to continue after this paper.",
	"PaperEdge.node":             "The paper.",
	"PageInfo":                   "Where a page ends.",
	"PageInfo.hasNextPage":       "Whether papers follow this page.",
	"PageInfo.endCursor":         "The cursor of the last paper of the page; null on an empty page.",

	"SearchHit":       "A node found by search.",
	"SearchHit.node":  "The node.",
	"SearchHit.score": "How well its label matches the text; hits come best first.",

	"Subgraph":       "Nodes and the edges among them.",
	"Subgraph.nodes": "The nodes, the start node among them.",
	"Subgraph.edges": "Every edge between two of the nodes, including the derived CO_AUTHOR and CO_OCCURS.",
	"Edge":           "An edge between two nodes of a subgraph.",
	"Edge.source":    "The id of the node it leaves.",
	"Edge.target":    "The id of the node it reaches.",
	"Edge.weight":    "MENTIONS: key-term score in (0, 1]; CO_AUTHOR: shared papers; CO_OCCURS: papers with both among their 10 best concepts; null for edges without a weight.",

	"Stats":               "Counts of the whole graph.",
	"Stats.papers":        "Papers.",
	"Stats.authors":       "Authors.",
	"Stats.subjects":      "Subjects.",
	"Stats.concepts":      "Concepts.",
	"Stats.repositories":  "Code repositories.",
	"Stats.organizations": "Repository owners.",

	"IngestReport.documents":       "Documents read.",
	"IngestReport.failed":          "Documents skipped (see failures); the others were stored.",
	"IngestReport.papersAdded":     "Papers new to the graph.",
	"IngestReport.papersMerged":    "Papers already known, merged with what this ingest read.",
	"IngestReport.papersUnchanged": "Papers already known, read again with nothing new.",
	"IngestReport.authorsAdded":    "Authors new to the graph.",
	"IngestReport.conceptsAdded":   "Concepts made by this ingest.",
}

// describe sets the descriptions of docs on a built schema.
func describe(s graphql.Schema) error {
	for key, text := range docs {
		if err := describeOne(s, key, text); err != nil {
			return fmt.Errorf("schema docs %q: %w", key, err)
		}
	}
	return nil
}

func describeOne(s graphql.Schema, key, text string) error {
	typeName, rest, hasField := strings.Cut(key, ".")
	ty := s.Type(typeName)
	if ty == nil {
		return fmt.Errorf("no type %s", typeName)
	}
	if !hasField {
		switch ty := ty.(type) {
		case *graphql.Object:
			ty.PrivateDescription = text
		case *graphql.Interface:
			ty.PrivateDescription = text
		case *graphql.Enum:
			ty.PrivateDescription = text
		default:
			return fmt.Errorf("cannot describe %T", ty)
		}
		return nil
	}
	if e, ok := ty.(*graphql.Enum); ok {
		for _, v := range e.Values() {
			if v.Name == rest {
				v.Description = text
				return nil
			}
		}
		return fmt.Errorf("no value %s", rest)
	}
	field, arg, hasArg := strings.Cut(strings.TrimSuffix(rest, ")"), "(")
	var fields graphql.FieldDefinitionMap
	switch ty := ty.(type) {
	case *graphql.Object:
		fields = ty.Fields()
	case *graphql.Interface:
		fields = ty.Fields()
	}
	f := fields[field]
	if f == nil {
		return fmt.Errorf("no field %s", field)
	}
	if !hasArg {
		f.Description = text
		return nil
	}
	for _, a := range f.Args {
		if a.PrivateName == arg {
			a.PrivateDescription = text
			return nil
		}
	}
	return fmt.Errorf("no argument %s", arg)
}
